#include "execpolicy/data_flow.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "execpolicy/args.h"
#include "execpolicy/parser.h"

namespace clawtools::execpolicy {

using namespace std::string_view_literals;
namespace {

// tr's SET syntax: ranges a-z, escapes \n \\, classes [:lower:] [:upper:] [:digit:] [:space:].
std::optional<std::string> TrSet(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.substr(i).starts_with("[:")) {
      size_t end = s.find(":]", i);
      if (end == std::string_view::npos) return std::nullopt;
      std::string_view cls = s.substr(i + 2, end - i - 2);
      for (int c = 0; c < 128; ++c) {
        if ((cls == "lower" && std::islower(c)) || (cls == "upper" && std::isupper(c)) ||
            (cls == "digit" && std::isdigit(c)) || (cls == "space" && std::isspace(c)) ||
            (cls == "alpha" && std::isalpha(c)) || (cls == "alnum" && std::isalnum(c))) {
          out += static_cast<char>(c);
        }
      }
      i = end + 1;
      continue;
    }
    if (s[i] == '[') return std::nullopt;  // [c*n] repeats: not modelled
    char c = s[i];
    if (c == '\\' && i + 1 < s.size()) {
      std::string d = DecodeAnsiC(s.substr(i, 2));
      c = d.size() == 1 ? d[0] : s[i + 1];
      ++i;
    }
    if (i + 2 < s.size() && s[i + 1] == '-') {
      char hi = s[i + 2];
      if (hi < c) return std::nullopt;
      for (int x = c; x <= hi; ++x) out += static_cast<char>(x);
      i += 2;
      continue;
    }
    out += c;
  }
  return out;
}

std::optional<std::string> Tr(const ParsedArgs& a, const Invocation& inv, const std::string& in) {
  if (a.operands.empty()) return std::nullopt;
  auto set1 = TrSet(inv.Word(a.operands[0]));
  if (!set1) return std::nullopt;
  if (a.Has('c') || a.Has('C')) return std::nullopt;
  if (a.Has('d')) {
    std::string out;
    for (char c : in) {
      if (set1->find(c) == std::string::npos) out += c;
    }
    return out;
  }
  if (a.operands.size() < 2) return std::nullopt;
  auto set2 = TrSet(inv.Word(a.operands[1]));
  if (!set2 || set2->empty()) return std::nullopt;
  std::string out = in;
  for (char& c : out) {
    size_t at = set1->rfind(c);
    if (at != std::string::npos) c = (*set2)[std::min(at, set2->size() - 1)];
  }
  return out;
}

std::string Rev(const std::string& in) {
  std::string out;
  size_t start = 0;
  while (start < in.size()) {
    size_t nl = in.find('\n', start);
    std::string line = in.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    std::reverse(line.begin(), line.end());
    out += line;
    if (nl == std::string::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

// printf FORMAT [ARGS]: %s %b %d %c %%, escapes in the format; the format is reused while
// arguments remain, as printf(1) does.
std::optional<std::string> Printf(const Invocation& inv, size_t first) {
  if (first >= inv.argv.size()) return std::nullopt;
  const std::string fmt = DecodeAnsiC(inv.Word(first));
  size_t arg = first + 1;
  std::string out;
  do {
    for (size_t i = 0; i < fmt.size(); ++i) {
      char c = fmt[i];
      if (c != '%' || i + 1 >= fmt.size()) {
        out += c;
        continue;
      }
      char conv = fmt[++i];
      while ((conv == '-' || std::isdigit(static_cast<unsigned char>(conv))) &&
             i + 1 < fmt.size()) {
        conv = fmt[++i];
      }
      if (conv == '%') {
        out += '%';
        continue;
      }
      std::string value = arg < inv.argv.size() ? inv.Word(arg++) : "";
      if (conv == 's' || conv == 'd' || conv == 'i' || conv == 'u') {
        out += value;
      } else if (conv == 'b') {
        out += DecodeAnsiC(value);
      } else if (conv == 'c') {
        if (!value.empty()) out += value[0];
      } else {
        return std::nullopt;
      }
    }
  } while (arg < inv.argv.size() && fmt.find('%') != std::string::npos);
  return out;
}

std::optional<std::string> Echo(const Invocation& inv) {
  size_t i = 1;
  bool newline = true, escapes = false;
  for (; i < inv.argv.size(); ++i) {
    const std::string& a = inv.Word(i);
    if (a.size() < 2 || a[0] != '-' || a.find_first_not_of("neE", 1) != std::string::npos) break;
    for (char c : a.substr(1)) {
      if (c == 'n') newline = false;
      if (c == 'e') escapes = true;
      if (c == 'E') escapes = false;
    }
  }
  std::string out;
  for (size_t k = i; k < inv.argv.size(); ++k) {
    if (k > i) out += ' ';
    out += escapes ? DecodeAnsiC(inv.Word(k)) : inv.Word(k);
  }
  if (newline) out += '\n';
  return out;
}

}  // namespace

bool IsDownloader(std::string_view p) {
  static const std::unordered_set<std::string_view> kDownloaders = {
      "curl"sv,  "wget"sv,        "fetch"sv,        "aria2c"sv, "http"sv, "https"sv, "httpie"sv,
      "xh"sv,    "lwp-request"sv, "lwp-download"sv, "GET"sv,    "nc"sv,   "ncat"sv,  "netcat"sv,
      "socat"sv, "telnet"sv,      "tftp"sv,         "ftp"sv,    "scp"sv,  "sftp"sv,  "rsync"sv,
      "s3cmd"sv, "gsutil"sv,      "lynx"sv,         "links"sv,  "w3m"sv,  "elinks"sv};
  return kDownloaders.contains(p);
}

std::optional<std::string> DecodeBase64(std::string_view text) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+' || c == '-')
      v = 62;
    else if (c == '/' || c == '_')
      v = 63;
    else if (c == '=' || std::isspace(static_cast<unsigned char>(c)))
      continue;
    else
      return std::nullopt;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return out;
}

std::optional<std::string> DecodeHex(std::string_view text) {
  std::string out;
  int hi = -1;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    int v = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
            : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                        : -1;
    if (v < 0) return std::nullopt;
    if (hi < 0) {
      hi = v;
    } else {
      out += static_cast<char>(hi * 16 + v);
      hi = -1;
    }
  }
  return out;
}

Stream EvaluateOutput(const Invocation& inv) {
  Stream out;
  out.present = true;
  out.taint = inv.in.taint;
  out.origin = inv.in.origin.empty() ? inv.Canonical() : inv.in.origin + " | " + inv.Canonical();
  const std::string_view p = inv.Program();
  if (IsDownloader(p)) {
    out.taint |= kTaintNetwork;
    return out;
  }
  // Programs whose output is modelled; one lookup instead of comparing with every name.
  enum class Kind { kEcho, kPrintf, kCopy, kBase64, kXxd, kOpenssl, kRev, kTr, kDecoder, kPacker };
  static const std::unordered_map<std::string_view, Kind> kKinds = {
      {"echo", Kind::kEcho},        {"printf", Kind::kPrintf},
      {"cat", Kind::kCopy},         {"tee", Kind::kCopy},
      {"head", Kind::kCopy},        {"tail", Kind::kCopy},
      {"sort", Kind::kCopy},        {"base64", Kind::kBase64},
      {"base32", Kind::kBase64},    {"basenc", Kind::kBase64},
      {"xxd", Kind::kXxd},          {"openssl", Kind::kOpenssl},
      {"rev", Kind::kRev},          {"tr", Kind::kTr},
      {"gunzip", Kind::kDecoder},   {"zcat", Kind::kDecoder},
      {"bzcat", Kind::kDecoder},    {"xzcat", Kind::kDecoder},
      {"zstdcat", Kind::kDecoder},  {"uncompress", Kind::kDecoder},
      {"uudecode", Kind::kDecoder}, {"gpg", Kind::kDecoder},
      {"unxz", Kind::kDecoder},     {"lzcat", Kind::kDecoder},
      {"gzip", Kind::kPacker},      {"bzip2", Kind::kPacker},
      {"xz", Kind::kPacker},        {"zstd", Kind::kPacker}};
  const auto kind = kKinds.find(p);
  if (kind == kKinds.end()) return out;
  const std::optional<std::string>& in = inv.in.text;
  const bool has_file_operand = inv.argv.size() > 1 && inv.Word(inv.argv.size() - 1)[0] != '-';
  switch (kind->second) {
    case Kind::kEcho:
      out.text = Echo(inv);
      break;
    case Kind::kPrintf:
      out.text = Printf(inv, 1);
      break;
    case Kind::kCopy:
      if (in && (inv.argv.size() == 1 || p == "tee")) out.text = in;
      break;
    case Kind::kBase64: {
      ParsedArgs a = ParseArgs(inv.argv, 1, {"w", {{"decode", 'd'}, {"wrap", 'w', true}}});
      if (a.Has('d') || a.Has('D')) {
        if (in && a.operands.empty() && p == "base64") out.text = DecodeBase64(*in);
        if (!out.text) out.taint |= kTaintDecoded;
      }
      break;
    }
    case Kind::kXxd: {
      ParsedArgs a =
          ParseArgs(inv.argv, 1, {"cglos", {{"revert", 'r'}, {"plain", 'p'}, {"ps", 'p'}}});
      if (a.Has('r')) {
        if (in && a.operands.empty() && a.Has('p')) out.text = DecodeHex(*in);
        if (!out.text) out.taint |= kTaintDecoded;
      }
      break;
    }
    case Kind::kOpenssl: {
      bool decode = false, base64 = false;
      for (size_t i = 1; i < inv.argv.size(); ++i) {
        decode = decode || inv.Word(i) == "-d";
        base64 =
            base64 || inv.Word(i) == "-base64" || inv.Word(i) == "-a" || inv.Word(i) == "base64";
      }
      if (decode) {
        if (in && base64 && !has_file_operand) out.text = DecodeBase64(*in);
        if (!out.text) out.taint |= kTaintDecoded;
      }
      break;
    }
    case Kind::kRev:
      if (in && inv.argv.size() == 1) out.text = Rev(*in);
      if (!out.text) out.taint |= kTaintDecoded;
      break;
    case Kind::kTr: {
      ParsedArgs a = ParseArgs(inv.argv, 1, {});
      if (in) out.text = Tr(a, inv, *in);
      if (!out.text) out.taint |= kTaintDecoded;
      break;
    }
    case Kind::kDecoder:
      out.taint |= kTaintDecoded;
      break;
    case Kind::kPacker:
      if (std::any_of(inv.argv.begin(), inv.argv.end(), [](const Field& f) {
            return f.text == "-d" || f.text == "-dc" || f.text == "--decompress";
          })) {
        out.taint |= kTaintDecoded;
      }
      break;
  }
  return out;
}

}  // namespace clawtools::execpolicy
