/* Stand-ins for the NVIDIA driver's libraries, for tests on a machine without a GPU: found by the real dlopen calls
 * (CUDA's runtime for libcuda.so.1, app/nvml.cpp for libnvidia-ml.so.1) through LD_LIBRARY_PATH, so gemmscope's own
 * detection runs unchanged.
 * FAKE_OLD_DRIVER: libcuda.so.1 of a driver that supports CUDA 11.4 only (older than any runtime gemmscope builds
 * with). FAKE_NVML_MISMATCH: libnvidia-ml.so.1 whose nvmlInit fails as after a driver upgrade without a reboot. */
#ifdef FAKE_OLD_DRIVER
int cuDriverGetVersion(int* version) {
  *version = 11040;
  return 0;
}
int cuInit(unsigned flags) {
  (void)flags;
  return 35; /* CUDA_ERROR_INSUFFICIENT_DRIVER */
}
int cuGetProcAddress(const char* symbol, void** fn, int version, unsigned long long flags) {
  (void)symbol, (void)version, (void)flags;
  *fn = 0;
  return 500; /* CUDA_ERROR_NOT_FOUND */
}
#endif

#ifdef FAKE_NVML_MISMATCH
int nvmlInit_v2(void) { return 18; /* NVML_ERROR_LIB_RM_VERSION_MISMATCH */ }
int nvmlShutdown(void) { return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned index, void** device) {
  (void)index;
  *device = 0;
  return 18;
}
const char* nvmlErrorString(int result) {
  return result == 18 ? "RM has detected an NVML/RM version mismatch." : "Unknown Error";
}
#endif
