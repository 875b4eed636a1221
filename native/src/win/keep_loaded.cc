// KeepLibraryLoaded on Windows: the module pinned (GET_MODULE_HANDLE_EX_FLAG_PIN), so it stays
// loaded until the process ends whatever FreeLibrary calls follow.
#include <windows.h>

#include "plumb.h"

namespace plumb {

void KeepLibraryLoaded() {
  HMODULE self = nullptr;
  GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                     reinterpret_cast<LPCWSTR>(&KeepLibraryLoaded), &self);
}

}  // namespace plumb
