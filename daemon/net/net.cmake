# Included from daemon/CMakeLists.txt right after skinpulse_net is defined. The HTTP
# client decodes gzip/deflate (zlib) and br (Brotli: Skinport refuses clients without it,
# docs/upstreams.md b.3), and names the daemon's version in its User-Agent.
find_package(PkgConfig REQUIRED)
pkg_check_modules(BROTLI REQUIRED IMPORTED_TARGET libbrotlidec)
find_package(ZLIB REQUIRED)
target_link_libraries(skinpulse_net PUBLIC PkgConfig::BROTLI ZLIB::ZLIB)
target_compile_definitions(skinpulse_net PRIVATE SKINPULSE_NET_VERSION="${PROJECT_VERSION}")
