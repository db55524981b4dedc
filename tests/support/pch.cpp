// The translation unit that builds the tests' precompiled header (FIELD_TEST_PCH,
// tests/CMakeLists.txt); it holds no code.
