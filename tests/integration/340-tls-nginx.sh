#!/bin/sh
# pairbench-test: untimed
# HTTP over TLS against a real nginx (ssl_certificate on a free loopback port, configured by
# start_nginx in tests/lib.sh), HTTP/1.1 and HTTP/2: verified runs succeed, a certificate with
# the wrong SAN is refused with exit 3 unless --insecure.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
tls_pki
need nginx

tls_nginx() { # name cert -> NGINX_PORT
    body=$(head -c 1000 /dev/zero | tr '\0' x)
    start_nginx "$1" "
    server {
        listen 127.0.0.1:@PORT@ ssl http2;
        ssl_certificate $PKI/$2.pem;
        ssl_certificate_key $PKI/$2.key;
        ssl_protocols TLSv1.2 TLSv1.3;
        location / { default_type text/plain; return 200 \"$body\"; }
    }"
}

RUN="--warmup 0.1 --duration 0.3 --transport tls --cacert $PKI/ca.pem"

tls_nginx good server
drv nginx http --port "$NGINX_PORT" $RUN --connections 2 --pipeline 2
assert_clean_run nginx
drv nginx-name http --port "$NGINX_PORT" $RUN --host localhost
assert_clean_run nginx-name
# HTTP/2 (ALPN h2) over the same TLS listener, verified the same way
drv nginx-h2 http --port "$NGINX_PORT" $RUN --http-version 2 --connections 2 --window 4
assert_clean_run nginx-h2

tls_nginx wrong wrongsan
drv nginx-wrong http --port "$NGINX_PORT" $RUN
assert_eq "$RC" 3 "nginx wrong SAN exit"
assert_err nginx-wrong "certificate verify failed: IP address mismatch"
drv nginx-insecure http --port "$NGINX_PORT" $RUN --insecure
assert_clean_run nginx-insecure "this.tls.insecure === true"
drv nginx-h2-wrong http --port "$NGINX_PORT" $RUN --http-version 2
assert_eq "$RC" 3 "nginx wrong SAN exit (http/2)"
check_runs
echo "340-tls-nginx: ok"
