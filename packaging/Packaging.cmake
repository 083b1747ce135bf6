# What `cmake --install` puts where, and the Debian package CPack makes of it
# (packaging/README.md). Executables go to bin/ side by side: the app finds strata-layout beside
# itself. Presets are embedded in the binaries; the JSON copies under share/strata/targets are
# starting points for users' own target files.

include(GNUInstallDirs)

if(STRATA_BUILD_GUI)
  install(TARGETS strata strata-layout RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/strata.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/strata.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/strata-mime.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME strata.xml)
endif()

file(GLOB strata_sample_models ${PROJECT_SOURCE_DIR}/samples/*.onnx)
install(FILES ${strata_sample_models} ${PROJECT_SOURCE_DIR}/samples/README.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/strata/samples)
file(GLOB strata_target_files ${PROJECT_SOURCE_DIR}/resources/targets/*.json)
install(FILES ${strata_target_files} DESTINATION ${CMAKE_INSTALL_DATADIR}/strata/targets)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME strata)
set(CPACK_PACKAGE_VENDOR "Strata")
set(CPACK_PACKAGE_CONTACT "Strata developers <strata@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Compiler explorer and profiler for deep-learning accelerators")
set(CPACK_PACKAGE_DESCRIPTION
    "Strata opens an ONNX model, lets you choose fusion blocks and cores per block on its graph, \
compiles it through its own pipeline, predicts the program's timeline with an emulator, runs it \
on the host CPU and compares predicted with measured transfer timelines.")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://example.invalid/strata")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Library dependencies come from dpkg-shlibdeps; Qt's platform plugins ship in libqt6gui6,
# which the app links, and the icon and MIME caches are refreshed by their packages' triggers.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The runtime loads OpenBLAS itself (core/runtime/Blas.h), so dpkg-shlibdeps cannot see it.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libopenblas0")
set(CPACK_STRIP_FILES ON)
include(CPack)
