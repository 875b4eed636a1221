// The Recycle Bin through IFileOperation. The shell deletes for good, without asking when told not
// to ask, any file it cannot recycle (a drive with no Recycle Bin, a file larger than the bin
// holds); the progress sink sees that before it happens (PreDeleteItem without
// TSF_DELETE_RECYCLE_IF_POSSIBLE) and aborts, so a file is recycled or left where it was. The sink
// also learns where the file went (PostDeleteItem's new item: the bin's $R file).
#include <objbase.h>
#include <shellapi.h>
#include <shlobj.h>
#include <shobjidl.h>
#include <windows.h>

#include <cstdio>
#include <string>

#include "space.h"
#include "win/paths.h"

namespace plumb {
namespace {

// Not in every SDK's headers (shobjidl: TRANSFER_SOURCE_FLAGS).
constexpr DWORD kRecycleIfPossible = 0x0002;  // TSF_DELETE_RECYCLE_IF_POSSIBLE

class RecycleSink : public IFileOperationProgressSink {
 public:
  bool wouldDelete = false;
  std::wstring recycled;

  // IUnknown: the sink lives on the caller's stack for the one operation.
  IFACEMETHODIMP QueryInterface(REFIID riid, void** out) override {
    if (riid == IID_IUnknown || riid == IID_IFileOperationProgressSink) {
      *out = static_cast<IFileOperationProgressSink*>(this);
      return S_OK;
    }
    *out = nullptr;
    return E_NOINTERFACE;
  }
  IFACEMETHODIMP_(ULONG) AddRef() override { return 2; }
  IFACEMETHODIMP_(ULONG) Release() override { return 1; }

  IFACEMETHODIMP PreDeleteItem(DWORD flags, IShellItem*) override {
    if ((flags & kRecycleIfPossible) == 0) {
      wouldDelete = true;
      return E_ABORT;  // never a permanent delete
    }
    return S_OK;
  }
  IFACEMETHODIMP PostDeleteItem(DWORD, IShellItem*, HRESULT result, IShellItem* created) override {
    if (SUCCEEDED(result) && created != nullptr) {
      PWSTR path = nullptr;
      if (SUCCEEDED(created->GetDisplayName(SIGDN_FILESYSPATH, &path)) && path != nullptr) {
        recycled = path;
        CoTaskMemFree(path);
      }
    }
    return S_OK;
  }

  IFACEMETHODIMP StartOperations() override { return S_OK; }
  IFACEMETHODIMP FinishOperations(HRESULT) override { return S_OK; }
  IFACEMETHODIMP PreRenameItem(DWORD, IShellItem*, LPCWSTR) override { return S_OK; }
  IFACEMETHODIMP PostRenameItem(DWORD, IShellItem*, LPCWSTR, HRESULT, IShellItem*) override {
    return S_OK;
  }
  IFACEMETHODIMP PreMoveItem(DWORD, IShellItem*, IShellItem*, LPCWSTR) override { return S_OK; }
  IFACEMETHODIMP PostMoveItem(DWORD, IShellItem*, IShellItem*, LPCWSTR, HRESULT,
                              IShellItem*) override {
    return S_OK;
  }
  IFACEMETHODIMP PreCopyItem(DWORD, IShellItem*, IShellItem*, LPCWSTR) override { return S_OK; }
  IFACEMETHODIMP PostCopyItem(DWORD, IShellItem*, IShellItem*, LPCWSTR, HRESULT,
                              IShellItem*) override {
    return S_OK;
  }
  IFACEMETHODIMP PreNewItem(DWORD, IShellItem*, LPCWSTR) override { return S_OK; }
  IFACEMETHODIMP PostNewItem(DWORD, IShellItem*, LPCWSTR, LPCWSTR, DWORD, HRESULT,
                             IShellItem*) override {
    return S_OK;
  }
  IFACEMETHODIMP UpdateProgress(UINT, UINT) override { return S_OK; }
  IFACEMETHODIMP ResetTimer() override { return S_OK; }
  IFACEMETHODIMP PauseTimer() override { return S_OK; }
  IFACEMETHODIMP ResumeTimer() override { return S_OK; }
};

// Releases a COM pointer on every path out.
template <typename T>
struct Com {
  T* p = nullptr;
  ~Com() {
    if (p) p->Release();
  }
};

SysError ShellError(HRESULT hr, const std::string& path, const char* what) {
  // In hex, as Windows' documentation and error lookups write it (0x80004001 is E_NOTIMPL).
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08lX", static_cast<unsigned long>(hr));
  return SysError{"EWIN" + std::to_string(static_cast<unsigned long>(hr)), "IFileOperation", path,
                  std::string(what) + " (HRESULT " + hex + ")."};
}

}  // namespace

bool RecycleFile(const std::string& path, RecycledFile* out, SysError* err) {
  // Each call runs on a worker thread of its own: COM is set up and torn down here.
  const HRESULT init = CoInitializeEx(nullptr, COINIT_APARTMENTTHREADED | COINIT_DISABLE_OLE1DDE);
  if (FAILED(init)) {
    *err = ShellError(init, path, "The Windows shell could not be started");
    return false;
  }
  bool ok = false;
  {
    Com<IFileOperation> op;
    Com<IShellItem> item;
    RecycleSink sink;
    DWORD cookie = 0;
    const std::wstring wide = Widen(path);
    HRESULT hr = CoCreateInstance(CLSID_FileOperation, nullptr, CLSCTX_ALL, IID_PPV_ARGS(&op.p));
    if (SUCCEEDED(hr)) {
      hr = op.p->SetOperationFlags(FOF_ALLOWUNDO | FOF_NOCONFIRMATION | FOF_NOERRORUI | FOF_SILENT |
                                   FOFX_EARLYFAILURE);
    }
    if (SUCCEEDED(hr))
      hr = SHCreateItemFromParsingName(wide.c_str(), nullptr, IID_PPV_ARGS(&item.p));
    if (SUCCEEDED(hr)) hr = op.p->Advise(&sink, &cookie);
    if (SUCCEEDED(hr)) hr = op.p->DeleteItem(item.p, nullptr);
    if (SUCCEEDED(hr)) hr = op.p->PerformOperations();
    BOOL aborted = FALSE;
    if (op.p) op.p->GetAnyOperationsAborted(&aborted);
    if (cookie != 0) op.p->Unadvise(cookie);
    if (sink.wouldDelete) {
      *err = SysError{"ENOTRASH", "IFileOperation", path,
                      "Windows cannot put " + path +
                          " in a Recycle Bin (none on this drive, or the file is larger than the "
                          "bin holds), so it was left where it is."};
    } else if (FAILED(hr) || aborted) {
      *err = ShellError(FAILED(hr) ? hr : E_ABORT, path, "Windows did not recycle the file");
    } else if (sink.recycled.empty()) {
      *err = SysError{"ENOTRASH", "IFileOperation", path,
                      "Windows recycled " + path + " but did not say where it is in the bin."};
    } else {
      out->recycledPath = Narrow(sink.recycled);
      // The bin keeps each file as $R<id><ext> with its origin in $I<id><ext> beside it.
      std::wstring info = sink.recycled;
      const size_t slash = info.find_last_of(L"\\/");
      const size_t name = slash == std::wstring::npos ? 0 : slash + 1;
      if (info.compare(name, 2, L"$R") == 0) info[name + 1] = L'I';
      out->infoPath = Narrow(info);
      ok = true;
    }
  }
  CoUninitialize();
  return ok;
}

}  // namespace plumb
