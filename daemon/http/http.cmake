# Included from daemon/CMakeLists.txt right after skinpulse_http is defined. Prepared
# bodies (http/PreparedBody.cpp) are compressed with zlib (gzip) and Brotli's encoder (br)
# once, when a cache fills; Debian 12: zlib1g-dev, libbrotli-dev.
find_package(PkgConfig REQUIRED)
pkg_check_modules(BROTLIENC REQUIRED IMPORTED_TARGET libbrotlienc)
find_package(ZLIB REQUIRED)
target_link_libraries(skinpulse_http PUBLIC PkgConfig::BROTLIENC ZLIB::ZLIB)
