// WTF-8 ⇄ UTF-16 for Win32 calls, without loss (engine/utf.h): Windows names may hold unpaired
// surrogates, which MultiByteToWideChar and WideCharToMultiByte would each turn into U+FFFD.
#pragma once

#include <windows.h>

#include <string>

#include "engine/utf.h"

namespace plumb {

inline std::wstring Widen(const std::string& s) {
  const std::u16string units = Utf16FromUtf8(s, Utf8Flavor::kWtf8);
  return std::wstring(units.begin(), units.end());
}

inline std::string Narrow(const std::wstring& w) {
  return Utf8FromUtf16(std::u16string(w.begin(), w.end()), Utf8Flavor::kWtf8);
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
