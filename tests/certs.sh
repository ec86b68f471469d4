#!/bin/sh
# Makes the test PKI into DIR with the openssl CLI (EC P-256 keys, 2 days):
#   ca.pem ca.key                 the CA the tests trust
#   server.pem server.key         signed by ca, SAN IP:127.0.0.1, IP:::1, DNS:localhost
#   wrongsan.pem wrongsan.key     signed by ca, SAN IP:10.9.9.9, DNS:wrong.example only
#   other-ca.pem other-ca.key     a second CA nobody trusts
#   unknown.pem unknown.key       signed by other-ca, the right SANs
#   client.pem client.key         client certificate (extendedKeyUsage clientAuth) signed by ca
# Usage: sh tests/certs.sh DIR
set -eu
dir=${1:?usage: certs.sh DIR}
command -v openssl >/dev/null 2>&1 || { echo "certs.sh: openssl not found" >&2; exit 1; }
mkdir -p "$dir"
cd "$dir"

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key" 2>/dev/null; }

ca() { # name subject
    key "$1"
    openssl req -x509 -new -key "$1.key" -subj "$2" -days 2 -sha256 -out "$1.pem" \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
        2>/dev/null
}

leaf() { # name ca cn extensions
    key "$1"
    openssl req -new -key "$1.key" -subj "/CN=$3" -out "$1.csr" 2>/dev/null
    printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature" "$4" > "$1.ext"
    openssl x509 -req -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" -CAcreateserial -days 2 \
        -sha256 -extfile "$1.ext" -out "$1.pem" 2>/dev/null
    rm -f "$1.csr" "$1.ext"
}

ca ca "/CN=pairbench test CA"
ca other-ca "/CN=pairbench unknown CA"
leaf server ca localhost \
    "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost
extendedKeyUsage=serverAuth"
leaf wrongsan ca wrong.example \
    "subjectAltName=IP:10.9.9.9,DNS:wrong.example
extendedKeyUsage=serverAuth"
leaf unknown other-ca localhost \
    "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost
extendedKeyUsage=serverAuth"
leaf client ca "pairbench client" "extendedKeyUsage=clientAuth"
rm -f ./*.srl
# Servers such as redis run as this user and read the keys; keep them private otherwise.
chmod 600 ./*.key
