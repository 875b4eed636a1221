// StartDetachedThread on Windows: CreateThread, its handle closed at once. Not std::thread: with
// mingw-w64 (the cross-built engine) that is winpthreads, whose pthread_detach of a thread that has
// just ended recycles the thread's record while its DLL_THREAD_DETACH callback still uses it; the
// next thread created gets that record, zeroed (it exits without running) or with its event
// handle closed under it. Under Wine it hung one scan of a 40-deep folder chain in two, and
// closed handles belonging to other calls (tests/windows/engine.test.mjs, "threads").
#include <windows.h>

#include <memory>
#include <utility>

#include "plumb.h"

namespace plumb {
namespace {

DWORD WINAPI RunWork(void* arg) {
  std::unique_ptr<std::function<void()>> work(static_cast<std::function<void()>*>(arg));
  (*work)();
  return 0;
}

}  // namespace

bool StartDetachedThread(std::function<void()> work) {
  auto owned = std::make_unique<std::function<void()>>(std::move(work));
  HANDLE thread = CreateThread(nullptr, 0, RunWork, owned.get(), 0, nullptr);
  if (thread == nullptr) return false;
  owned.release();  // the thread owns it now
  CloseHandle(thread);
  return true;
}

}  // namespace plumb
