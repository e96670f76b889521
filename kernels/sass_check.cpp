// Where the build put what the NoProbe SASS check compares (kernels/CMakeLists.txt passes the paths).
// Only the GPU tests call this, so only they link this object out of the static library.
#include "kernels/testing.h"

namespace gs::test_hooks {

SassCheckFiles sass_check_files() {
#if defined(GS_SASS_CUOBJDUMP) && defined(GS_SASS_PROBED) && defined(GS_SASS_STRIPPED)
  return {GS_SASS_CUOBJDUMP, GS_SASS_PROBED, GS_SASS_STRIPPED};
#else
  return {};
#endif
}

}  // namespace gs::test_hooks
