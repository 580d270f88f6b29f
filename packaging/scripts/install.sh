# --- shared: first-install steps (packaging/scripts/install.sh) ---
# Secrets file for the unit's EnvironmentFile=: root-owned, mode 0640, a fresh random
# SESSION_SECRET (64 hex digits). Never overwrites an existing file.
skinpulse_create_env() {
    [ -e "$skinpulse_env" ] && return 0
    secret=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
    tmp="$skinpulse_env.new.$$"
    ( umask 027
      cat > "$tmp" <<ENV
# skinpulsed secrets, read by systemd (EnvironmentFile=) before the daemon starts.
# Created by the package on first install; upgrades never touch it. Keep it 0640 root.
# Changing SESSION_SECRET signs every user out.
SESSION_SECRET=$secret
# DATABASE_URL=postgresql://skinpulse:PASSWORD@127.0.0.1:5432/skinpulse
# REDIS_URL=redis://127.0.0.1:6379/0
# IDPA_CLIENT_ID=
# IDPA_CLIENT_SECRET=
# IDPB_CLIENT_ID=
# IDPB_CLIENT_SECRET=
# GAMEID_OPENID_ENABLED=true
# GAMEID_API_KEY=
ENV
    )
    chmod 0640 "$tmp"
    mv "$tmp" "$skinpulse_env"
}

# The static group of the service (SupplementaryGroups= in the unit): the daemon runs as a
# transient user, so a configuration file holding a plugin's key is made readable to it
# with `chgrp skinpulse FILE; chmod 0640 FILE`.
skinpulse_create_group() {
    getent group skinpulse >/dev/null 2>&1 || groupadd --system skinpulse
}

# State directory for a daemon started by hand. Under systemd, StateDirectory= makes it
# (DynamicUser moves a pre-existing one to /var/lib/private/skinpulse on first start).
skinpulse_create_state_dir() {
    if [ ! -d /run/systemd/system ] && [ ! -e /var/lib/skinpulse ]; then
        mkdir -p /var/lib/skinpulse
        chmod 0750 /var/lib/skinpulse
    fi
}
# --- end of shared functions ---
