#!/bin/sh
# Regenerates the TLS fixtures of the net unit tests (test-only keys, valid 100 years):
#   ca.pem                      a CA the client is told to trust (its key is discarded)
#   localhost.pem/.key          signed by it for DNS:localhost, IP:127.0.0.1
#   other.pem/.key              signed by it for DNS:other.invalid (host-name mismatch)
#   selfsigned.pem/.key         self-signed for localhost, trusted by nobody
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
days=36500
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/ca.key" -out ca.pem -days $days \
  -subj "/CN=skinpulse test CA" -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign"
leaf() {  # name subject-alt-names
  openssl req -newkey rsa:2048 -nodes -keyout "$1.key" -out "$tmp/$1.csr" -subj "/CN=$1"
  printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$2" \
    > "$tmp/$1.ext"
  openssl x509 -req -in "$tmp/$1.csr" -CA ca.pem -CAkey "$tmp/ca.key" -CAcreateserial \
    -CAserial "$tmp/ca.srl" -out "$1.pem" -days $days -extfile "$tmp/$1.ext"
}
leaf localhost "DNS:localhost,IP:127.0.0.1"
leaf other "DNS:other.invalid"
openssl req -x509 -newkey rsa:2048 -nodes -keyout selfsigned.key -out selfsigned.pem \
  -days $days -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1"
