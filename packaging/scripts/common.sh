# --- shared: paths and systemd (packaging/scripts/common.sh) ---
skinpulse_env=/etc/skinpulse/skinpulsed.env

skinpulse_systemd_running() {
    [ -d /run/systemd/system ]
}

skinpulse_daemon_reload() {
    if skinpulse_systemd_running; then
        systemctl --system daemon-reload >/dev/null 2>&1 || true
    fi
}
# --- end of shared functions ---
