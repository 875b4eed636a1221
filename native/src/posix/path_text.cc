// Paths on Linux and macOS are bytes: those that are not UTF-8 travel as escapes (engine/utf.h).
#include "engine/utf.h"
#include "plumb.h"

namespace plumb {

std::u16string PathToUtf16(const std::string& path) {
  return Utf16FromUtf8(path, Utf8Flavor::kEscapedBytes);
}

std::string PathFromUtf16(const std::u16string& text) {
  return Utf8FromUtf16(text, Utf8Flavor::kEscapedBytes);
}

bool PathIsUtf8(const std::string& path) { return IsUtf8(path); }

}  // namespace plumb
