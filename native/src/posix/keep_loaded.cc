// KeepLibraryLoaded on Linux and macOS: one more reference to this library, never released, with
// RTLD_NODELETE so that not even a dlclose of every handle unloads it.
#include <dlfcn.h>

#include "plumb.h"

namespace plumb {

void KeepLibraryLoaded() {
  Dl_info self;
  if (dladdr(reinterpret_cast<void*>(&KeepLibraryLoaded), &self) != 0 && self.dli_fname) {
    dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  }
}

}  // namespace plumb
