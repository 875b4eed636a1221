// Windows queue-depth engine: overlapped ReadFile/WriteFile with `depth` requests in flight per
// worker, completions from the worker's own I/O completion port (a handle joins only one port,
// so each worker opens its own handle to the test file).
#include <windows.h>

#include "io.h"

namespace plumb {
namespace {

struct Slot {
  OVERLAPPED ov;
  uint32_t index;
  uint64_t startedAt;
};

bool Available(bool) { return true; }

bool Run(QueueJob& job, QueueWorker& worker, SysError* err) {
  const QueueRequest& request = job.request();
  IoFile own;
  const OpenOptions options{request.write ? FileAccess::kReadWrite : FileAccess::kRead,
                            !job.file().direct(), true};
  if (!own.Open(request.path, options, err)) return false;
  HANDLE file = reinterpret_cast<HANDLE>(own.handle());
  HANDLE port = CreateIoCompletionPort(file, nullptr, 0, 1);
  if (!port) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "CreateIoCompletionPort", request.path);
    return false;
  }
  std::vector<Slot> slots(worker.depth);
  uint32_t inFlight = 0;
  bool failed = false;
  auto fail = [&](DWORD code, const char* syscall) {
    if (!failed) {
      *err = code ? MakeSysError(static_cast<long>(code), syscall, request.path)
                  : MakeError("EIO", syscall, request.path,
                              "short transfer: the test file is shorter than fileBytes");
    }
    failed = true;
    job.Stop();
  };
  auto submit = [&](uint32_t index) {
    uint64_t offset = 0;
    if (failed || !job.Claim(worker, &offset)) return;
    Slot& slot = slots[index];
    slot = Slot{};
    slot.index = index;
    slot.ov.Offset = static_cast<DWORD>(offset);
    slot.ov.OffsetHigh = static_cast<DWORD>(offset >> 32);
    uint8_t* data = worker.buffers[index].data();
    job.PrepareBuffer(worker, data);
    slot.startedAt = MonotonicNanos();
    BOOL ok = request.write ? WriteFile(file, data, request.blockSize, nullptr, &slot.ov)
                            : ReadFile(file, data, request.blockSize, nullptr, &slot.ov);
    if (!ok && GetLastError() != ERROR_IO_PENDING) {
      fail(GetLastError(), request.write ? "WriteFile" : "ReadFile");
      return;
    }
    ++inFlight;  // completed or pending, the completion is queued to the port
  };

  for (uint32_t i = 0; i < worker.depth; ++i) submit(i);
  std::vector<OVERLAPPED_ENTRY> entries(std::min<uint32_t>(worker.depth, 64));
  while (inFlight > 0) {
    ULONG n = 0;
    if (!GetQueuedCompletionStatusEx(port, entries.data(), static_cast<ULONG>(entries.size()), &n,
                                     INFINITE, FALSE)) {
      fail(GetLastError(), "GetQueuedCompletionStatusEx");
      CancelIoEx(file, nullptr);
      break;
    }
    const uint64_t now = MonotonicNanos();
    for (ULONG i = 0; i < n; ++i) {
      --inFlight;
      Slot* slot = CONTAINING_RECORD(entries[i].lpOverlapped, Slot, ov);
      DWORD moved = 0;
      if (!GetOverlappedResult(file, &slot->ov, &moved, FALSE)) {
        fail(GetLastError(), request.write ? "WriteFile" : "ReadFile");
      } else if (moved != request.blockSize) {
        fail(0, request.write ? "WriteFile" : "ReadFile");
      } else {
        job.Complete(worker, now - slot->startedAt);
        submit(slot->index);
      }
    }
  }
  CloseHandle(port);
  SysError ignored;
  own.Close(&ignored);
  return !failed;
}

const QueueEngine kOverlappedEngine = {"overlapped", Available, Run, false};

}  // namespace

const std::vector<const QueueEngine*>& PlatformQueueEngines() {
  static const std::vector<const QueueEngine*> engines = {&kOverlappedEngine};
  return engines;
}

}  // namespace plumb
