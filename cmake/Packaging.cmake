# CPack: .deb and .rpm, split into
#   skinpulse        (component runtime) daemon, CLI, bundled plugins, /etc/skinpulse,
#                    /usr/share/skinpulse, the systemd unit, operations guide
#   skinpulse-dev    (component sdk; skinpulse-devel as .rpm) SDK headers, the
#                    SkinpulseSDK CMake package, the plugin guide and the example plugin
# Build with `cpack -G DEB` / `cpack -G RPM` in a build tree configured with
# -DCMAKE_INSTALL_PREFIX=/usr (the compiled-in plugin and data paths follow the prefix;
# tools/package-check refuses anything else). packaging/README.md has the details.

set(SKINPULSE_PACKAGE_RELEASE 1)
set(SKINPULSE_MAINTAINER "skinpulse maintainers <maintainers@users.noreply.a-seed-c1fd430f.example>")
set(pkg_dir ${PROJECT_SOURCE_DIR}/packaging)
set(pkg_out ${PROJECT_BINARY_DIR}/packaging-generated)

set(CPACK_PACKAGE_NAME skinpulse)
set(CPACK_PACKAGE_VENDOR "skinpulse")
set(CPACK_PACKAGE_CONTACT "${SKINPULSE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# No CPACK_PACKAGE_DESCRIPTION_SUMMARY: CPackDeb would prepend it to each component's
# description, whose first line already is that package's synopsis.
set(runtime_summary "CS2 item market price tracker")
set(sdk_summary "CS2 item market price tracker - plugin SDK")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://skinpulse.example.org/")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR "DEB;RPM")
set(CPACK_COMPONENTS_ALL runtime sdk)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
# Absolute destinations (/etc/skinpulse) are expected: they are the point of packaging.
set(CPACK_WARN_ON_ABSOLUTE_INSTALL_DESTINATION OFF)
set(CPACK_STRIP_FILES ON)

set(CPACK_COMPONENT_RUNTIME_DISPLAY_NAME "skinpulse daemon")
set(CPACK_COMPONENT_SDK_DISPLAY_NAME "skinpulse plugin SDK")

# --- Debian -----------------------------------------------------------------------------
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_PACKAGE_RELEASE ${SKINPULSE_PACKAGE_RELEASE})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${SKINPULSE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
# Maintainer scripts 0755, conffiles 0644, whatever the checkout's umask.
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME skinpulse)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION net)
# passwd: groupadd in postinst (shlibdeps adds the libraries).
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "passwd")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "systemd")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SUGGESTS "postgresql, redis-server")
set(runtime_description
    "skinpulsed keeps a catalogue of the tradable Counter-Strike 2 items, polls
market sources on a schedule, stores normalised price history in SQLite or
PostgreSQL and serves it over a JSON HTTP API. Market sources, identity
providers and metrics are plugins. This package has the daemon, the
skinpulsectl admin tool, the bundled plugins, the configuration in
/etc/skinpulse and a hardened systemd unit.")
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "${runtime_summary}\n${runtime_description}")

set(CPACK_DEBIAN_SDK_PACKAGE_NAME skinpulse-dev)
set(CPACK_DEBIAN_SDK_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_SDK_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_SDK_PACKAGE_DEPENDS "")
set(CPACK_DEBIAN_SDK_PACKAGE_RECOMMENDS
    "skinpulse (= ${PROJECT_VERSION}-${SKINPULSE_PACKAGE_RELEASE}), cmake, g++")
set(sdk_description
    "The C++ headers and the SkinpulseSDK CMake package for writing skinpulse
plugins (market sources, identity providers, metrics) out of tree:
find_package(SkinpulseSDK) gives the target skinpulse::sdk. Includes the
plugin guide and a complete example source plugin.")
set(CPACK_DEBIAN_SDK_DESCRIPTION "${sdk_summary}\n${sdk_description}")

# Maintainer scripts share shell functions: common.sh (paths, systemd) in all of them,
# install.sh (secrets file, state directory) in postinst / %post only.
file(READ ${pkg_dir}/scripts/common.sh SKINPULSE_SCRIPT_COMMON)
file(READ ${pkg_dir}/scripts/install.sh SKINPULSE_SCRIPT_INSTALL)
foreach(script deb-postinst deb-prerm deb-postrm rpm-post rpm-preun rpm-postun)
  configure_file(${pkg_dir}/scripts/${script}.in ${pkg_out}/${script} @ONLY)
endforeach()
foreach(script postinst prerm postrm)
  configure_file(${pkg_out}/deb-${script} ${pkg_out}/deb/${script} COPYONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                                  WORLD_READ WORLD_EXECUTE)
endforeach()

# Everything under /etc is a conffile (.deb) / %config(noreplace) (.rpm): an upgrade
# never overwrites an admin's edit. The list follows etc/skinpulse/ at configure time.
file(GLOB etc_drop_ins RELATIVE ${PROJECT_SOURCE_DIR}/etc/skinpulse CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/etc/skinpulse/conf.d/*.ini)
set(etc_files /etc/skinpulse/skinpulsed.ini)
foreach(f ${etc_drop_ins})
  list(APPEND etc_files /etc/skinpulse/${f})
endforeach()
list(SORT etc_files)
list(JOIN etc_files "\n" conffiles_text)
file(WRITE ${pkg_out}/deb/conffiles "${conffiles_text}\n")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA
    "${pkg_out}/deb/conffiles;${pkg_out}/deb/postinst;${pkg_out}/deb/prerm;${pkg_out}/deb/postrm")

# Debian policy: copyright and changelog.Debian.gz in each package's doc directory.
configure_file(${pkg_dir}/debian/changelog.in ${pkg_out}/changelog.Debian @ONLY)
execute_process(COMMAND gzip -9nc ${pkg_out}/changelog.Debian
                OUTPUT_FILE ${pkg_out}/changelog.Debian.gz)
foreach(component_doc "runtime;skinpulse" "sdk;skinpulse-dev")
  list(GET component_doc 0 component)
  list(GET component_doc 1 package)
  install(FILES ${pkg_dir}/debian/copyright ${pkg_out}/changelog.Debian.gz
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
endforeach()

# Manual pages, compressed as Debian policy wants them (and rpm accepts).
foreach(page skinpulsed.8 skinpulsectl.1)
  string(REGEX REPLACE ".*\\.([0-9])$" "\\1" section ${page})
  execute_process(COMMAND gzip -9nc ${pkg_dir}/man/${page} OUTPUT_FILE ${pkg_out}/${page}.gz)
  install(FILES ${pkg_out}/${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section}
          COMPONENT runtime)
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${pkg_dir}/man/skinpulsed.8 ${pkg_dir}/man/skinpulsectl.1 ${pkg_dir}/debian/changelog.in)

# --- RPM --------------------------------------------------------------------------------
set(CPACK_RPM_COMPONENT_INSTALL ON)
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_RELEASE ${SKINPULSE_PACKAGE_RELEASE})
set(CPACK_RPM_PACKAGE_LICENSE "LicenseRef-unspecified")
set(CPACK_RPM_PACKAGE_GROUP "Applications/Internet")
set(CPACK_RPM_PACKAGE_URL "${CPACK_PACKAGE_HOMEPAGE_URL}")
set(CPACK_RPM_PACKAGE_AUTOREQ yes)
set(CPACK_RPM_PACKAGE_AUTOPROV no)
set(CPACK_RPM_RUNTIME_PACKAGE_NAME skinpulse)
set(CPACK_RPM_SDK_PACKAGE_NAME skinpulse-devel)
set(CPACK_RPM_SDK_PACKAGE_ARCHITECTURE noarch)
set(CPACK_RPM_SDK_PACKAGE_GROUP "Development/Libraries")
set(CPACK_RPM_SPEC_MORE_DEFINE "%define packager ${SKINPULSE_MAINTAINER}")
set(CPACK_RPM_RUNTIME_PACKAGE_SUMMARY "${runtime_summary}")
set(CPACK_RPM_SDK_PACKAGE_SUMMARY "${sdk_summary}")
set(CPACK_RPM_RUNTIME_PACKAGE_DESCRIPTION "${runtime_description}")
set(CPACK_RPM_SDK_PACKAGE_DESCRIPTION "${sdk_description}")
set(CPACK_RPM_RUNTIME_PACKAGE_REQUIRES_POST "shadow-utils")
set(CPACK_RPM_RUNTIME_POST_INSTALL_SCRIPT_FILE ${pkg_out}/rpm-post)
set(CPACK_RPM_RUNTIME_PRE_UNINSTALL_SCRIPT_FILE ${pkg_out}/rpm-preun)
set(CPACK_RPM_RUNTIME_POST_UNINSTALL_SCRIPT_FILE ${pkg_out}/rpm-postun)
set(rpm_config_files)
foreach(f ${etc_files})
  list(APPEND rpm_config_files "%config(noreplace) ${f}")
endforeach()
set(CPACK_RPM_RUNTIME_USER_FILELIST ${rpm_config_files})
# Directories owned by the distribution (filesystem, systemd, cmake) stay out of ours.
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
    /etc /usr/bin /usr/sbin /usr/lib /usr/lib/systemd /usr/lib/systemd/system /usr/share
    /usr/share/doc /usr/share/cmake /usr/share/man /usr/share/man/man1 /usr/share/man/man8
    /usr/include /var /var/lib)

include(CPack)
