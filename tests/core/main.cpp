// Catch2 v2 entry point, shared by the native and the wasm build of the suite.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
