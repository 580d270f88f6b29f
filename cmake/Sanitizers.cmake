# SKINPULSE_SANITIZE=ON instruments every target of the project (daemon, plugins, tests)
# with ASan and UBSan. UBSan's vptr check is off: RTTI across dlopen()ed plugins trips it
# on types that are in fact identical.
if(SKINPULSE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize=vptr
                      -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined -fno-sanitize=vptr)
endif()
