// Linked with every object of warpdp_core and nothing of kernels/ or tools/
// (tests/CMakeLists.txt): it builds only while core/ calls nothing above it.
// A test executable links only the objects it uses, so this one is what
// catches a core file that no test touches.
int main() { return 0; }
