# FHS install layout (packaging is then only CPack):
#   /usr/sbin/skinpulsed, /usr/bin/skinpulsectl, /usr/lib/skinpulse/plugins,
#   /etc/skinpulse, /usr/share/skinpulse, /usr/include/skinpulse/sdk, /var/lib/skinpulse
set(SKINPULSE_INSTALL_PLUGINDIR "lib/skinpulse/plugins" CACHE STRING "Plugin directory, relative to the prefix")
set(SKINPULSE_INSTALL_DATADIR "${CMAKE_INSTALL_DATAROOTDIR}/skinpulse")
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(SKINPULSE_INSTALL_SYSCONFDIR "/etc/skinpulse")
  set(SKINPULSE_INSTALL_STATEDIR "/var/lib/skinpulse")
else()
  # Relative, so `cmake --install --prefix DIR` and staging installs stay inside DIR.
  set(SKINPULSE_INSTALL_SYSCONFDIR "${CMAKE_INSTALL_SYSCONFDIR}/skinpulse")
  set(SKINPULSE_INSTALL_STATEDIR "${CMAKE_INSTALL_LOCALSTATEDIR}/lib/skinpulse")
endif()
# Absolute paths compiled into the daemon as its installed defaults.
set(SKINPULSE_FULL_PLUGINDIR "${CMAKE_INSTALL_PREFIX}/${SKINPULSE_INSTALL_PLUGINDIR}")
set(SKINPULSE_FULL_DATADIR "${CMAKE_INSTALL_PREFIX}/${SKINPULSE_INSTALL_DATADIR}")
