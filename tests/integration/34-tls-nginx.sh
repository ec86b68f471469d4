#!/bin/sh
# HTTP over TLS against a real nginx (ssl_certificate on a free loopback port, our own
# configuration, foreground), HTTP/1.1 and HTTP/2: verified runs succeed, a certificate with
# the wrong SAN is refused with exit 3 unless --insecure.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
tls_pki
need nginx

start_nginx() { # name cert -> NGINX_PORT
    NGINX_PORT=$(free_port)
    d=$T/$1
    mkdir -p "$d/tmp"
    body=$(head -c 1000 /dev/zero | tr '\0' x)
    cat > "$d/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $d/nginx.pid;
error_log $d/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $d/tmp/body;
    proxy_temp_path $d/tmp/proxy;
    fastcgi_temp_path $d/tmp/fastcgi;
    uwsgi_temp_path $d/tmp/uwsgi;
    scgi_temp_path $d/tmp/scgi;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$NGINX_PORT ssl http2;
        ssl_certificate $PKI/$2.pem;
        ssl_certificate_key $PKI/$2.key;
        ssl_protocols TLSv1.2 TLSv1.3;
        location / { default_type text/plain; return 200 "$body"; }
    }
}
EOF
    start_bg "$1" nginx -p "$d" -c "$d/nginx.conf" -e "$d/error.log"
    wait_port "$NGINX_PORT"
}

RUN="--warmup 0.1 --duration 0.3 --transport tls --cacert $PKI/ca.pem"

start_nginx good server
drv nginx http --port "$NGINX_PORT" $RUN --connections 2 --pipeline 2
assert_clean_run nginx
drv nginx-name http --port "$NGINX_PORT" $RUN --host localhost
assert_clean_run nginx-name
# HTTP/2 (libcurl) over the same TLS listener, verified the same way
drv nginx-h2 http --port "$NGINX_PORT" $RUN --http-version 2 --connections 2 --window 4
assert_clean_run nginx-h2

start_nginx wrong wrongsan
drv nginx-wrong http --port "$NGINX_PORT" $RUN
assert_eq "$RC" 3 "nginx wrong SAN exit"
assert_err nginx-wrong "certificate verify failed: IP address mismatch"
drv nginx-insecure http --port "$NGINX_PORT" $RUN --insecure
assert_clean_run nginx-insecure "this.tls.insecure === true"
drv nginx-h2-wrong http --port "$NGINX_PORT" $RUN --http-version 2
assert_eq "$RC" 3 "nginx wrong SAN exit (http/2)"
check_runs
echo "34-tls-nginx: ok"
