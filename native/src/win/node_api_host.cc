// Node-API from the executable that loaded the engine (node.exe, or Electron's binary renamed
// Plumb.exe), for the cross-built engines, which import nothing from Node
// (scripts/cross/node-api-host.mjs writes the table filled here). node-gyp's MSVC build links
// node.lib with a delay-load hook instead and leaves this file empty.
#ifdef PLUMB_NODE_API_FROM_HOST
#include <windows.h>

#include <cstdio>
#include <cstdlib>

extern "C" {
extern void* plumb_node_api_slots[];
extern const char* const plumb_node_api_names[];
extern const unsigned plumb_node_api_count;
}

namespace {

// Where a function the host lacks (newer than its Node-API) would have been called.
void MissingNodeApi() {
  std::fputs(
      "plumb: the engine called a Node-API function this program does not provide; Plumb needs "
      "Node.js 18 or later, or its own desktop app\n",
      stderr);
  std::abort();
}

// Before every other constructor (101 is the first priority left to programs): nothing may call
// Node-API before the table is filled.
__attribute__((constructor(101))) void TakeNodeApiFromHost() {
  const HMODULE host = GetModuleHandleW(nullptr);
  for (unsigned i = 0; i < plumb_node_api_count; ++i) {
    FARPROC found = GetProcAddress(host, plumb_node_api_names[i]);
    plumb_node_api_slots[i] =
        found ? reinterpret_cast<void*>(found) : reinterpret_cast<void*>(&MissingNodeApi);
  }
}

}  // namespace
#endif  // PLUMB_NODE_API_FROM_HOST
