#!/usr/bin/env bash
# Runs the packaged maintainer scripts (the .deb's postinst/prerm/postrm and the .rpm's
# %post/%preun/%postun, as extracted from the packages) against a copy of /etc and an
# empty /var/lib, bind-mounted in a private mount namespace: the machine's own /etc and
# /var/lib are never touched. Needs root (unshare --mount).
#   tests/packaging/maintainer_scripts.sh RUNTIME.deb RUNTIME.rpm WORKDIR
set -euo pipefail
deb=$1 rpm=$2 work=$3

if [ "${1:-}" != --inside ]; then
  mkdir -p "$work/scripts" "$work/ns-etc" "$work/ns-varlib"
  for s in postinst prerm postrm; do
    dpkg-deb --ctrl-tarfile "$deb" | tar -xO "./$s" >"$work/scripts/deb-$s"
  done
  for s in POSTIN PREUN POSTUN; do
    rpm -qp --qf "%{$s}" "$rpm" 2>/dev/null >"$work/scripts/rpm-$s"
  done
  cp -a /etc/. "$work/ns-etc/"
  rm -rf "$work/ns-etc/skinpulse"
  exec unshare --mount --propagation private "$0" --inside "$work" "$0"
fi

# --- inside the namespace ---
work=$2
mount --bind "$work/ns-etc" /etc
mount --bind "$work/ns-varlib" /var/lib
env_file=/etc/skinpulse/skinpulsed.env
mkdir -p /etc/skinpulse  # dpkg unpacks the conffiles before postinst runs
fail() { echo "maintainer_scripts: FAIL: $*" >&2; exit 1; }
run() { sh -e "$work/scripts/$1" "${@:2}"; }

# .deb: first install
run deb-postinst configure ""
[ -f "$env_file" ] || fail "first install created no $env_file"
[ "$(stat -c '%a %U %G' "$env_file")" = "640 root root" ] || fail "env file: $(stat -c '%a %U %G' "$env_file")"
grep -Eq '^SESSION_SECRET=[0-9a-f]{64}$' "$env_file" || fail "no random SESSION_SECRET"
getent group skinpulse >/dev/null || fail "group skinpulse not created"
[ "$(stat -c %a /var/lib/skinpulse)" = 750 ] || fail "no state directory without systemd"
secret=$(cat "$env_file")
# upgrade: kept as is; a deleted file is not recreated by an upgrade
run deb-postinst configure 0.0.9-1
[ "$(cat "$env_file")" = "$secret" ] || fail "upgrade rewrote the env file"
rm "$env_file"
run deb-postinst configure 0.0.9-1
[ ! -e "$env_file" ] || fail "an upgrade created the env file"
# remove keeps it, purge removes it
run deb-postinst configure ""
run deb-prerm remove
run deb-postrm remove
[ -f "$env_file" ] || fail "remove deleted the env file"
run deb-postrm purge
[ ! -e "$env_file" ] || fail "purge kept the env file"
[ -d /var/lib/skinpulse ] || fail "purge deleted the state directory"
echo "maintainer_scripts: .deb postinst/prerm/postrm OK"

# .rpm: $1 counts installed versions
mkdir -p /etc/skinpulse
run rpm-POSTIN 1
grep -Eq '^SESSION_SECRET=[0-9a-f]{64}$' "$env_file" || fail "%post 1 made no secret"
secret=$(cat "$env_file")
run rpm-POSTIN 2
[ "$(cat "$env_file")" = "$secret" ] || fail "%post 2 rewrote the env file"
run rpm-PREUN 0
run rpm-POSTUN 0
[ -f "$env_file" ] || fail "erase deleted the env file"
echo "maintainer_scripts: .rpm %post/%preun/%postun OK"
