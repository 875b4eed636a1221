// UTF-8 ⇄ UTF-16 (utf.h): well-formed sequences as Unicode defines them (table 3-7), everything
// else kept in the flavor's way.
#include "engine/utf.h"

namespace plumb {
namespace {

// The length of the well-formed sequence starting at bytes[i], with its code point in *code; 0
// where none starts there. `surrogates`: an encoded surrogate (ED A0..BF xx) counts, as in WTF-8.
size_t SequenceAt(const std::string& bytes, size_t i, bool surrogates, char32_t* code) {
  const auto at = [&bytes](size_t k) { return static_cast<unsigned char>(bytes[k]); };
  const auto follows = [&](size_t k, unsigned char low, unsigned char high) {
    return k < bytes.size() && at(k) >= low && at(k) <= high;
  };
  const unsigned char lead = at(i);
  if (lead < 0x80) {
    *code = lead;
    return 1;
  }
  if (lead >= 0xC2 && lead <= 0xDF) {
    if (!follows(i + 1, 0x80, 0xBF)) return 0;
    *code = (char32_t{lead} & 0x1F) << 6 | (at(i + 1) & 0x3F);
    return 2;
  }
  if (lead >= 0xE0 && lead <= 0xEF) {
    const unsigned char low = lead == 0xE0 ? 0xA0 : 0x80;
    const unsigned char high = lead == 0xED && !surrogates ? 0x9F : 0xBF;
    if (!follows(i + 1, low, high) || !follows(i + 2, 0x80, 0xBF)) return 0;
    *code = (char32_t{lead} & 0x0F) << 12 | (char32_t{at(i + 1)} & 0x3F) << 6 | (at(i + 2) & 0x3F);
    return 3;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    const unsigned char low = lead == 0xF0 ? 0x90 : 0x80;
    const unsigned char high = lead == 0xF4 ? 0x8F : 0xBF;
    if (!follows(i + 1, low, high) || !follows(i + 2, 0x80, 0xBF) || !follows(i + 3, 0x80, 0xBF))
      return 0;
    *code = (char32_t{lead} & 0x07) << 18 | (char32_t{at(i + 1)} & 0x3F) << 12 |
            (char32_t{at(i + 2)} & 0x3F) << 6 | (at(i + 3) & 0x3F);
    return 4;
  }
  return 0;
}

void AppendUtf8(char32_t code, std::string* out) {
  if (code < 0x80) {
    out->push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out->push_back(static_cast<char>(0xC0 | code >> 6));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | code >> 12));
    out->push_back(static_cast<char>(0x80 | (code >> 6 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | code >> 18));
    out->push_back(static_cast<char>(0x80 | (code >> 12 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code >> 6 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

}  // namespace

std::u16string Utf16FromUtf8(const std::string& bytes, Utf8Flavor flavor) {
  std::u16string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    char32_t code = 0;
    const size_t length = SequenceAt(bytes, i, flavor == Utf8Flavor::kWtf8, &code);
    if (length == 0) {
      // Never produced by our own WTF-8; a byte string's stray byte is kept as its escape.
      out.push_back(flavor == Utf8Flavor::kEscapedBytes
                        ? static_cast<char16_t>(0xDC00 + static_cast<unsigned char>(bytes[i]))
                        : u'\uFFFD');
      i += 1;
      continue;
    }
    if (code >= 0x10000) {
      out.push_back(static_cast<char16_t>(0xD800 + ((code - 0x10000) >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + ((code - 0x10000) & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(code));
    }
    i += length;
  }
  return out;
}

std::string Utf8FromUtf16(const std::u16string& units, Utf8Flavor flavor) {
  std::string out;
  out.reserve(units.size());
  for (size_t i = 0; i < units.size(); ++i) {
    char32_t code = units[i];
    const bool pair = code >= 0xD800 && code <= 0xDBFF && i + 1 < units.size() &&
                      units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF;
    if (pair) {
      code = 0x10000 + ((code - 0xD800) << 10) + (units[i + 1] - 0xDC00);
      i += 1;
    } else if (flavor == Utf8Flavor::kEscapedBytes && code >= 0xDC80 && code <= 0xDCFF) {
      out.push_back(static_cast<char>(code - 0xDC00));
      continue;
    }
    AppendUtf8(code, &out);  // an unpaired surrogate other than an escape: WTF-8's 3 bytes
  }
  return out;
}

bool IsUtf8(const std::string& bytes) {
  for (size_t i = 0; i < bytes.size();) {
    char32_t code = 0;
    const size_t length = SequenceAt(bytes, i, false, &code);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

}  // namespace plumb
