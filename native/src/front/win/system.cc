// The front door's OS side on Windows: wmain(), Node started as a child (there is no exec), the
// state folder, the console and Ctrl-C.
#include <windows.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "front/front.h"

namespace plumb {
namespace front {
namespace {

CancelFlag* g_cancel = nullptr;
std::string g_out;  // stdout waiting to be written, in pieces of up to kOutBytes
constexpr size_t kOutBytes = 64 * 1024;
volatile LONG g_interrupts = 0;
bool g_handedOff = false;  // Node owns the console's Ctrl-C while it runs

std::string Utf8(const std::wstring& wide) {
  if (wide.empty()) return "";
  const int bytes = WideCharToMultiByte(CP_UTF8, 0, wide.data(), static_cast<int>(wide.size()),
                                        nullptr, 0, nullptr, nullptr);
  std::string out(static_cast<size_t>(bytes), '\0');
  WideCharToMultiByte(CP_UTF8, 0, wide.data(), static_cast<int>(wide.size()), &out[0], bytes,
                      nullptr, nullptr);
  return out;
}

std::wstring Wide(const std::string& text) {
  if (text.empty()) return L"";
  const int chars =
      MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), nullptr, 0);
  std::wstring out(static_cast<size_t>(chars), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), &out[0], chars);
  return out;
}

// An environment variable; `set` tells an empty value from a missing one.
std::wstring Env(const wchar_t* name, bool* set = nullptr) {
  SetLastError(ERROR_SUCCESS);  // 0 chars with no error: set, but empty
  const DWORD chars = GetEnvironmentVariableW(name, nullptr, 0);
  if (set) *set = chars > 0 || GetLastError() != ERROR_ENVVAR_NOT_FOUND;
  if (chars == 0) return L"";
  std::wstring value(chars, L'\0');
  value.resize(GetEnvironmentVariableW(name, &value[0], chars));
  return value;
}

// The folder of this executable (where bin/plumb.js is).
std::wstring OwnFolder() {
  std::wstring path(MAX_PATH, L'\0');
  for (;;) {
    const DWORD chars = GetModuleFileNameW(nullptr, &path[0], static_cast<DWORD>(path.size()));
    if (chars == 0) return L"";
    if (chars < path.size()) {
      path.resize(chars);
      break;
    }
    path.resize(path.size() * 2);
  }
  const size_t slash = path.find_last_of(L"\\/");
  return slash == std::wstring::npos ? L"" : path.substr(0, slash);
}

std::wstring Join(const std::wstring& base, const std::wstring& name) {
  if (base.empty()) return name;
  const wchar_t last = base.back();
  return last == L'\\' || last == L'/' ? base + name : base + L"\\" + name;
}

// The arguments after the program name, exactly as they were written on the command line.
std::wstring ArgumentsAsWritten() {
  const wchar_t* line = GetCommandLineW();
  // The program name ends at its closing quote, or at the first blank when not quoted.
  if (*line == L'"') {
    for (++line; *line && *line != L'"';) ++line;
    if (*line) ++line;
  } else {
    while (*line && *line != L' ' && *line != L'\t') ++line;
  }
  return line;
}

BOOL WINAPI OnConsoleEvent(DWORD event) {
  if (g_handedOff) return TRUE;  // Node, in the same console, gets the event and decides
  if (event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT && event != CTRL_CLOSE_EVENT) {
    return FALSE;
  }
  if (InterlockedIncrement(&g_interrupts) > 1) ExitProcess(130);
  if (g_cancel) g_cancel->cancelled.store(true);
  return TRUE;
}

// Bytes as they are, with WriteFile: "\n" stays "\n" (Node does not translate either).
void WriteHandle(DWORD which, const char* data, size_t bytes) {
  const HANDLE handle = GetStdHandle(which);
  while (bytes > 0) {
    DWORD done = 0;
    const DWORD chunk = bytes > (1u << 30) ? (1u << 30) : static_cast<DWORD>(bytes);
    if (!WriteFile(handle, data, chunk, &done, nullptr) || done == 0) return;
    data += done;
    bytes -= done;
  }
}

}  // namespace

int HandOff() {
  const std::wstring chosen = Env(L"PLUMB_NODE");
  const std::wstring node = chosen.empty() ? L"node" : chosen;
  const std::wstring script = Join(OwnFolder(), L"plumb.js");
  std::wstring command = L"\"" + node + L"\" \"" + script + L"\"" + ArgumentsAsWritten();
  FlushOut();
  STARTUPINFOW startup = {};
  startup.cb = sizeof startup;
  PROCESS_INFORMATION process = {};
  g_handedOff = true;
  SetConsoleCtrlHandler(OnConsoleEvent, TRUE);
  if (!CreateProcessW(nullptr, &command[0], nullptr, nullptr, FALSE, 0, nullptr, nullptr, &startup,
                      &process)) {
    WriteErr("plumb: cannot start Node.js (" + Utf8(node) + ": error " +
             std::to_string(GetLastError()) +
             "). Install Node.js 20 or later, or set PLUMB_NODE to the node program.\n");
    return 1;
  }
  WaitForSingleObject(process.hProcess, INFINITE);
  DWORD code = 1;
  GetExitCodeProcess(process.hProcess, &code);
  CloseHandle(process.hThread);
  CloseHandle(process.hProcess);
  return static_cast<int>(code);
}

std::string JournalDir() {
  std::wstring state = Env(L"PLUMB_STATE_DIR");
  if (state.empty()) {
    // LOCALAPPDATA ?? <home>\AppData\Local (os.homedir(): USERPROFILE).
    bool set = false;
    std::wstring local = Env(L"LOCALAPPDATA", &set);
    if (!set) local = Join(Env(L"USERPROFILE"), L"AppData\\Local");
    state = Join(local, L"Plumb");
  }
  return Utf8(Join(state, L"space-journal"));
}

bool FolderHasEntries(const std::string& dir) {
  WIN32_FIND_DATAW found;
  const HANDLE search = FindFirstFileW(Join(Wide(dir), L"*").c_str(), &found);
  if (search == INVALID_HANDLE_VALUE) return false;
  bool any = false;
  do {
    const std::wstring name = found.cFileName;
    if (name != L"." && name != L"..") any = true;
  } while (!any && FindNextFileW(search, &found));
  FindClose(search);
  return any;
}

bool StderrIsTerminal() {
  DWORD mode = 0;
  const HANDLE err = GetStdHandle(STD_ERROR_HANDLE);
  if (!GetConsoleMode(err, &mode)) return false;
  // The status line overwrites itself with "\r\x1b[K", as on other systems.
  SetConsoleMode(err, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
  return true;
}

void CancelOnInterrupt(CancelFlag* flag) {
  g_cancel = flag;
  SetConsoleCtrlHandler(OnConsoleEvent, TRUE);
}

void WriteOut(const char* data, size_t bytes) {
  g_out.append(data, bytes);
  if (g_out.size() >= kOutBytes) FlushOut();
}

void WriteErr(const std::string& text) { WriteHandle(STD_ERROR_HANDLE, text.data(), text.size()); }

void FlushOut() {
  WriteHandle(STD_OUTPUT_HANDLE, g_out.data(), g_out.size());
  g_out.clear();
}

}  // namespace front
}  // namespace plumb

int wmain(int argc, wchar_t** argv) {
  SetConsoleOutputCP(CP_UTF8);  // the UTF-8 written shows as such in a console
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.push_back(plumb::front::Utf8(argv[i]));
  return plumb::front::Run(args);
}
