// UTF-8 ⇄ UTF-16 for Win32 calls.
#pragma once

#include <windows.h>

#include <string>

namespace plumb {

inline std::wstring Widen(const std::string& s) {
  int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
  std::wstring w(static_cast<size_t>(n), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
  return w;
}

inline std::string Narrow(const std::wstring& w) {
  int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), nullptr, 0, nullptr,
                              nullptr);
  std::string s(static_cast<size_t>(n), '\0');
  WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), s.data(), n, nullptr,
                      nullptr);
  return s;
}

// "\\.\C:" for a drive root, "\\?\Volume{...}" for a volume GUID path; empty for network shares.
inline std::wstring VolumeDevicePath(const std::wstring& root) {
  std::wstring path = root;
  while (!path.empty() && path.back() == L'\\') path.pop_back();
  if (path.size() == 2 && path[1] == L':') return L"\\\\.\\" + path;
  if (path.rfind(L"\\\\?\\Volume{", 0) == 0) return path;
  return std::wstring();
}

}  // namespace plumb
