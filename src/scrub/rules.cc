#include "scrub/rules.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace clawtools::scrub {
namespace {

// Token shapes confirmed by RE2 anchored at the prefilter's start. A trailing boundary is
// deliberately absent: a token longer than max_len is still redacted up to max_len.
struct TokenRule {
  const char* re2;  // capture group 1, when present, is the secret part
  size_t max_len;
  bool word_start;  // must not follow a word byte ("task-..." holds no "sk-" key); checked
                    // before RE2 runs, as such hits are frequent
};

enum TokenRuleId {
  kOpenAI,
  kGitHub,
  kAwsKeyId,
  kGoogle,
  kSlack,
  kSlackWebhook,
  kStripe,
  kHuggingFace,
  kJwt,
  kGitLabNpm,
  kNumTokenRules,
};

constexpr std::array<TokenRule, kNumTokenRules> kTokenRules = {{
    // OpenAI legacy and project/service-account/admin keys; Anthropic (sk-ant-...) keys too.
    {R"(sk-(?:(?:proj|svcacct|admin|ant|None)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20,}))", 512, true},
    {R"((?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}))", 512, true},
    {R"((?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})", 20, true},
    {R"((?:AIza[0-9A-Za-z_-]{35}|ya29\.[0-9A-Za-z_-]{20,}))", 2048, true},
    {R"((?:xox[abprs]-[0-9A-Za-z-]{10,}|xapp-[0-9]-[0-9A-Za-z-]{10,}))", 256, true},
    {R"(hooks\.slack\.com/services/(T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]{8,}))", 512, false},
    {R"((?:[sr]k_(?:live|test)_[0-9A-Za-z]{10,}|whsec_[A-Za-z0-9]{24,}))", 512, true},
    {R"(hf_[A-Za-z0-9]{30,})", 512, true},
    {R"(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)", kMaxTokenLen, true},
    {R"((?:glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{36,}))", 512, true},
}};

enum class Check { kToken, kJwt, kPem, kTelegram, kUrlPassword, kKeyword, kBearer };

// A Hyperscan pattern reporting the end of a candidate. For kToken every match has one fixed
// length, so the candidate starts that many bytes before the end.
struct Prefilter {
  const char* hs;
  unsigned flags;
  Check check;
  int token_rule;
};

constexpr Prefilter kPrefilters[] = {
    {"sk-[A-Za-z0-9]{20}", 0, Check::kToken, kOpenAI},
    {"sk-(?:proj|None)-[A-Za-z0-9_-]{20}", 0, Check::kToken, kOpenAI},
    {"sk-svcacct-[A-Za-z0-9_-]{20}", 0, Check::kToken, kOpenAI},
    {"sk-admin-[A-Za-z0-9_-]{20}", 0, Check::kToken, kOpenAI},
    {"sk-ant-[A-Za-z0-9_-]{20}", 0, Check::kToken, kOpenAI},
    {"gh[pousr]_[A-Za-z0-9]{36}", 0, Check::kToken, kGitHub},
    {"github_pat_[A-Za-z0-9_]{22}", 0, Check::kToken, kGitHub},
    {"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}", 0, Check::kToken, kAwsKeyId},
    {"AIza[0-9A-Za-z_-]{35}", 0, Check::kToken, kGoogle},
    {"ya29\\.[0-9A-Za-z_-]{20}", 0, Check::kToken, kGoogle},
    {"xox[abprs]-[0-9A-Za-z-]{10}", 0, Check::kToken, kSlack},
    {"xapp-[0-9]-[0-9A-Za-z-]{10}", 0, Check::kToken, kSlack},
    {"hooks\\.slack\\.com/services/", 0, Check::kToken, kSlackWebhook},
    {"[sr]k_(?:live|test)_[0-9A-Za-z]{10}", 0, Check::kToken, kStripe},
    {"whsec_[A-Za-z0-9]{24}", 0, Check::kToken, kStripe},
    {"hf_[A-Za-z0-9]{30}", 0, Check::kToken, kHuggingFace},
    {"glpat-[A-Za-z0-9_-]{20}", 0, Check::kToken, kGitLabNpm},
    {"npm_[A-Za-z0-9]{36}", 0, Check::kToken, kGitLabNpm},
    {"eyJ[A-Za-z0-9_-]{8,512}\\.eyJ", 0, Check::kJwt, -1},
    {"-----BEGIN[ A-Z0-9_-]{0,60}PRIVATE KEY", 0, Check::kPem, -1},
    {"[0-9]{8}:[A-Za-z0-9_-]{35}", 0, Check::kTelegram, -1},
    {"://[^\\s/@:]{0,128}:[^\\s/@]{1,256}@", 0, Check::kUrlPassword, -1},
    // Keywords alone: a literal set scans several times faster than the whole key/value shape;
    // the rest of the shape is checked by hand.
    {"pass|secret|token|key|cred|auth|bearer", HS_FLAG_CASELESS, Check::kKeyword, -1},
    {"bearer[ \\t]{1,4}[A-Za-z0-9._~+/=-]{8}", HS_FLAG_CASELESS, Check::kBearer, -1},
};
constexpr size_t kNumPrefilters = sizeof(kPrefilters) / sizeof(kPrefilters[0]);

constexpr size_t kPemHeaderBack = 80;

constexpr size_t kMaxKeyLen = 64;
constexpr size_t kMinValueLen = 6;
constexpr size_t kUrlBack = 420;

bool IsAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}
bool IsUpperOrDigit(char c) {
  return (c >= 'A' && c <= 'Z') || IsDigit(c);
}
bool IsAlnum(char c) {
  return IsAlpha(c) || IsDigit(c);
}
bool IsWordChar(char c) {
  return IsAlnum(c) || c == '_';
}
bool IsBlank(char c) {
  return c == ' ' || c == '\t';
}
bool IsQuote(char c) {
  return c == '"' || c == '\'' || c == '`';
}
bool IsKeyChar(char c) {
  return IsWordChar(c) || c == '-' || c == '.';
}
bool IsUrlSafeB64(char c) {
  return IsWordChar(c) || c == '-';
}
// RFC 6750 b64token.
bool IsBearerChar(char c) {
  return IsAlnum(c) || std::strchr("-._~+/=", c) != nullptr;
}
char Lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return Lower(x) == Lower(y); });
}

template <size_t N>
bool In(std::string_view word, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), word) != set.end();
}

// Lower-cased words of an identifier (at most kMaxKeyLen bytes): split at punctuation and
// camelCase humps, so that "AWS_SECRET_ACCESS_KEY", "clientSecret" and "X-API-Key" all expose
// their nouns. Allocation-free: this runs for every keyword followed by a separator.
class KeyWords {
 public:
  explicit KeyWords(std::string_view key) {
    size_t len = 0;
    size_t start = 0;
    auto close = [&] {
      if (len > start && count_ < kMaxWords)
        words_[count_++] = std::string_view(buf_ + start, len - start);
      start = len;
    };
    for (size_t i = 0; i < key.size() && len < sizeof(buf_); ++i) {
      const char c = key[i];
      if (!IsAlnum(c)) {
        close();
        continue;
      }
      if (c >= 'A' && c <= 'Z' && len > start) {
        const char prev = key[i - 1];
        const bool prev_upper = prev >= 'A' && prev <= 'Z';
        const bool next_lower = i + 1 < key.size() && key[i + 1] >= 'a' && key[i + 1] <= 'z';
        if (!prev_upper || next_lower) close();
      }
      buf_[len++] = Lower(c);
    }
    close();
  }
  size_t size() const { return count_; }
  std::string_view operator[](size_t i) const { return words_[i]; }
  std::string_view back() const { return words_[count_ - 1]; }

 private:
  static constexpr size_t kMaxWords = 16;
  char buf_[kMaxKeyLen];
  std::string_view words_[kMaxWords];
  size_t count_ = 0;
};

// Nouns that make a key a credential wherever they appear ("db_password", "GITHUB_TOKEN").
constexpr std::array<std::string_view, 13> kSecretNouns = {
    "password",    "passwd", "passphrase", "secret", "token",         "apikey",    "credential",
    "credentials", "creds",  "auth",       "bearer", "authorization", "privatekey"};
// A word ending like this is a credential too ("authtoken", "clientsecret", "xapikey").
constexpr std::array<std::string_view, 7> kSecretSuffixes = {
    "token", "secret", "password", "passwd", "apikey", "accesskey", "secretkey"};
// "key" alone is too common ("cache_key", "sort_key"); these qualifiers make it a credential.
constexpr std::array<std::string_view, 40> kKeyQualifiers = {
    "api",     "access",  "secret",  "private",   "signing",     "sign",    "encryption",
    "encrypt", "master",  "client",  "app",       "account",     "service", "auth",
    "license", "admin",   "session", "shared",    "hmac",        "ssh",     "gpg",
    "pgp",     "aws",     "openai",  "anthropic", "gemini",      "google",  "stripe",
    "slack",   "github",  "groq",    "mistral",   "deepseek",    "cohere",  "consumer",
    "deploy",  "webhook", "jwt",     "storage",   "subscription"};
// A last word that turns a credential-looking key into metadata ("token_count", "password_hint").
constexpr std::array<std::string_view, 52> kMetadataWords = {
    "hint",   "hints",    "count",   "counts",    "len",        "length",  "size",     "limit",
    "limits", "max",      "min",     "type",      "types",      "name",    "names",    "file",
    "files",  "path",     "paths",   "dir",       "url",        "uri",     "endpoint", "id",
    "ids",    "ttl",      "expiry",  "expires",   "expiration", "timeout", "prefix",   "suffix",
    "format", "field",    "fields",  "header",    "enabled",    "enable",  "disabled", "required",
    "policy", "rotation", "version", "algorithm", "alg",        "usage",   "index",    "kind",
    "mode",   "label",    "env",     "provider"};
// A first word that makes the key a number about credentials ("max_tokens", "num_tokens").
constexpr std::array<std::string_view, 5> kQuantityWords = {"max", "min", "num", "total", "n"};

bool IsCredentialKey(std::string_view key) {
  const KeyWords words(key);
  if (words.size() == 0) return false;
  if (In(words.back(), kMetadataWords)) return false;
  if (words.size() > 1 && In(words[0], kQuantityWords)) return false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    if (In(w, kSecretNouns)) return true;
    if (i + 1 == words.size() && w == "pass") return true;  // DB_PASS, but not pass_rate
    for (std::string_view suffix : kSecretSuffixes) {
      if (w.size() > suffix.size() && w.ends_with(suffix)) return true;
    }
    if ((w == "key" || w == "keys") && i > 0 && In(words[i - 1], kKeyQualifiers)) return true;
  }
  return false;
}

// Values that are evidently not secrets: templates, masks, type names, literals.
bool IsPlaceholder(std::string_view v) {
  if (v.size() < kMinValueLen) return true;
  if (std::strchr("$<%{[*", v.front()) != nullptr) return true;
  if (std::all_of(v.begin(), v.end(), [&](char c) { return c == v.front(); })) return true;
  static constexpr std::array<std::string_view, 16> kWords = {
      "null",     "none",     "nil",    "true",    "false",  "undefined", "empty",  "redacted",
      "required", "optional", "string", "boolean", "hidden", "masked",    "secret", "password"};
  for (std::string_view w : kWords) {
    if (EqualsIgnoreCase(v, w)) return true;
  }
  return false;
}

// Stops an unquoted value: blanks, quotes and the delimiters of URLs, JSON-ish maps, connection
// strings and code.
bool IsValueStop(char c) {
  return static_cast<unsigned char>(c) <= ' ' || std::strchr("\"'`,;&()[]{}<>\\", c) != nullptr;
}

// A dotted identifier such as "self.token" or "process.env.API_KEY": code, not a value. Digits
// are excluded: they make "eyJhbGciOiJIUzI1NiJ9.abc" a token.
bool IsDottedIdentifier(std::string_view v) {
  bool dot = false;
  bool word_start = true;
  for (char c : v) {
    if (c == '.') {
      if (word_start) return false;
      dot = word_start = true;
    } else if (IsAlpha(c) || c == '_') {
      word_start = false;
    } else {
      return false;
    }
  }
  return dot && !word_start;
}

// Authorization header schemes whose credential is the next word.
constexpr std::array<std::string_view, 9> kAuthSchemes = {
    "bearer", "basic", "token", "negotiate", "ntlm", "apikey", "api-key", "key", "sso-key"};

bool LooksLikeToken(std::string_view tok) {
  if (IsPlaceholder(tok)) return false;
  bool digit = false, upper = false, lower = false;
  for (char c : tok) {
    digit |= IsDigit(c);
    upper |= (c >= 'A' && c <= 'Z');
    lower |= (c >= 'a' && c <= 'z');
  }
  return tok.size() >= 8 && ((digit && (upper || lower)) || (tok.size() >= 20 && upper && lower));
}

re2::StringPiece Piece(std::string_view s) {
  return re2::StringPiece(s.data(), s.size());
}

// The end of an unquoted value starting at `vs`: the first stop byte, at most kMaxTokenLen on.
// Remembers the bytes known to hold no stop byte, so that many keys sharing one long value
// ("password=password=...") cost linear time in total.
struct StopCache {
  size_t from = 0;
  size_t to = 0;         // [from, to) holds no stop byte
  bool stopped = false;  // t[to] is a stop byte, or to is the end of the text
  bool valid = false;
};

size_t FindValueStop(std::string_view t, size_t vs, StopCache* cache) {
  const size_t limit = std::min(t.size(), vs + kMaxTokenLen);
  size_t i = vs;
  if (cache->valid && vs >= cache->from && vs <= cache->to) {
    if (cache->stopped || cache->to >= limit) return std::min(cache->to, limit);
    i = cache->to;
  } else {
    cache->from = vs;
  }
  while (i < limit && !IsValueStop(t[i])) ++i;
  cache->to = i;
  cache->stopped = i == t.size() || IsValueStop(t[i]);
  cache->valid = true;
  return i;
}

// `password=...`, `"api_key": "..."`, `FOO_SECRET=...`, `Authorization: Bearer ...`. `end` is just
// past the ':' or '=' separator. Keeps the key and redacts the value.
void ConfirmKeyValue(std::string_view t, size_t end, StopCache* cache, std::vector<Span>* out) {
  const size_t n = t.size();
  const size_t sep = end - 1;
  size_t v = end;
  if (t[sep] == ':') {
    if (v < n && t[v] == ':') return;  // a C++/Rust path
    if (v < n && t[v] == '=') ++v;     // Go's :=
  } else {
    if (v < n && (t[v] == '=' || t[v] == '~')) return;  // a comparison
    if (v < n && t[v] == '>') ++v;                      // =>
    if (sep > 0 && std::strchr("!<>=+*/|&^%", t[sep - 1]) != nullptr) return;
  }

  size_t k = sep;
  while (k > 0 && IsBlank(t[k - 1]) && sep - k < 8) --k;
  if (k > 0 && (t[k - 1] == '"' || t[k - 1] == '\'')) {
    --k;
    if (k > 0 && t[k - 1] == '\\') --k;
  }
  const size_t key_end = k;
  while (k > 0 && key_end - k <= kMaxKeyLen && IsKeyChar(t[k - 1])) --k;
  if (k == key_end || key_end - k > kMaxKeyLen) return;
  if (k >= 2 && t[k - 1] == '/' && t[k - 2] == '/') return;  // URL user ("//x-access-token:")
  const std::string_view key = t.substr(k, key_end - k);
  if (!IsCredentialKey(key)) return;

  const size_t after_sep = v;
  while (v < n && IsBlank(t[v]) && v - after_sep < 16) ++v;
  if (v >= n) return;
  char quote = 0;
  if (t[v] == '\\' && v + 1 < n && IsQuote(t[v + 1])) {
    v += 2;  // JSON embedded in a string: the value ends at the next backslash
  } else if (IsQuote(t[v])) {
    quote = t[v++];
  }

  size_t vs = v;
  if (KeyWords(key).back() == "authorization") {  // non-empty: IsCredentialKey held
    size_t w = vs;
    while (w < n && w - vs < 20 && (IsAlnum(t[w]) || t[w] == '-')) ++w;
    if (w < n && IsBlank(t[w])) {
      std::string scheme(t.substr(vs, w - vs));
      std::transform(scheme.begin(), scheme.end(), scheme.begin(), Lower);
      if (In(std::string_view(scheme), kAuthSchemes)) {
        while (w < n && IsBlank(t[w]) && w - vs < 40) ++w;
        vs = w;
      }
    }
  }

  size_t ve = vs;
  bool closed = false;
  if (quote != 0) {
    // Quoted: up to the closing quote on the same line, honouring backslash escapes. An
    // Authorization scheme's credential ends at the first blank instead.
    const bool one_word = vs != v;
    while (ve < n && ve - vs < kMaxTokenLen && t[ve] != '\n' && t[ve] != quote &&
           !(one_word && IsBlank(t[ve]))) {
      ve += (t[ve] == '\\' && ve + 1 < n) ? 2 : 1;
    }
    ve = std::min(ve, n);
    closed = ve < n && (t[ve] == quote || (one_word && IsBlank(t[ve])));
    if (!closed) ve = vs;  // unterminated: treat as unquoted
  }
  if (!closed) {
    ve = FindValueStop(t, vs, cache);
    const std::string_view value = t.substr(vs, ve - vs);
    if (ve < n && (t[ve] == '(' || t[ve] == '[' || t[ve] == '<')) return;  // call, index, generic
    if (IsDottedIdentifier(value)) return;
    // `token = other_name` in code: an assignment of an identifier with no digits.
    if (v > after_sep && t[sep] == '=' &&
        std::all_of(value.begin(), value.end(), [](char c) { return IsAlpha(c) || c == '_'; })) {
      return;
    }
  }
  if (IsPlaceholder(t.substr(vs, ve - vs))) return;
  out->push_back({vs, ve});
}

// "-----<word> <label>-----" at `pos`, the label being "... PRIVATE KEY" or "... PRIVATE KEY
// BLOCK" (OpenPGP). Returns the end of the line's closing dashes, or npos.
size_t PemBoundary(std::string_view t, size_t pos, std::string_view word) {
  if (t.substr(pos, 5) != "-----" || t.substr(pos + 5, word.size()) != word) {
    return std::string_view::npos;
  }
  const size_t label = pos + 5 + word.size();
  size_t i = label;
  while (i < t.size() && i - label < 80 &&
         (IsUpperOrDigit(t[i]) || t[i] == ' ' || t[i] == '_' ||
          (t[i] == '-' && t.substr(i, 5) != "-----"))) {
    ++i;
  }
  if (t.substr(i, 5) != "-----") return std::string_view::npos;
  const std::string_view name = t.substr(label, i - label);
  if (!name.ends_with("PRIVATE KEY") && !name.ends_with("PRIVATE KEY BLOCK")) {
    return std::string_view::npos;
  }
  return i + 5;
}

// A PEM private key block, redacted whole: header, body lines (base64, RFC 1421 / OpenPGP
// header lines, indentation allowed) and footer. Without a footer (truncated output) the header
// and the complete body lines are redacted; a line that runs into ordinary text is kept.
// Hand-written rather than RE2: the label repetitions made RE2's DFA give up for its slow NFA.
void ConfirmPem(std::string_view t, size_t start, std::vector<Span>* out) {
  static constexpr std::string_view kHeaders[] = {
      "Proc-Type:", "DEK-Info:", "Comment:", "Version:", "Hash:"};
  const size_t header_end = PemBoundary(t, start, "BEGIN");
  if (header_end == std::string_view::npos) return;
  const size_t limit = std::min(t.size(), start + kMaxPemBody);
  size_t end = header_end;  // end of the last complete line
  size_t i = header_end;
  while (i < limit) {
    if (t[i] == '\r') ++i;
    if (i >= limit || t[i] != '\n') break;
    ++i;
    while (i < limit && IsBlank(t[i])) ++i;
    if (t.substr(i, 8) == "-----END") {
      const size_t footer_end = PemBoundary(t, i, "END");
      if (footer_end != std::string_view::npos) end = std::min(footer_end, limit);
      break;
    }
    bool header = false;
    for (std::string_view h : kHeaders) header |= t.substr(i, h.size()) == h;
    if (header) {
      while (i < limit && t[i] != '\n' && t[i] != '\r') ++i;
    } else {
      while (i < limit && (IsAlnum(t[i]) || t[i] == '+' || t[i] == '/' || t[i] == '=')) ++i;
      if (i < limit && t[i] != '\n' && t[i] != '\r') break;  // ran into ordinary text
    }
    end = i;
  }
  out->push_back({start, end});
}

// `Bearer <token>` outside a header (e.g. in a log line). `end` is 8 token bytes past the blanks.
void ConfirmBearer(std::string_view t, size_t end, std::vector<Span>* out) {
  const size_t ts = end - 8;
  size_t b = ts;
  while (b > 0 && IsBlank(t[b - 1])) --b;
  if (b < 6) return;
  if (b > 6 && IsWordChar(t[b - 7])) return;
  size_t te = ts;
  while (te < t.size() && te - ts < kMaxTokenLen && IsBearerChar(t[te])) ++te;
  if (LooksLikeToken(t.substr(ts, te - ts))) out->push_back({ts, te});
}

// Telegram bot token `\d{8,10}:[A-Za-z0-9_-]{35}`. `end` is the end of the 35-byte secret part.
void ConfirmTelegram(std::string_view t, size_t end, std::vector<Span>* out) {
  if (end < t.size() && IsUrlSafeB64(t[end])) return;
  const size_t colon = end - 36;
  size_t ds = colon;
  while (ds > 0 && colon - ds < 11 && IsDigit(t[ds - 1])) --ds;
  const size_t digits = colon - ds;
  if (digits < 8 || digits > 10) return;
  // api.telegram.org URLs glue the token to "bot": /bot123456789:AA.../sendMessage
  const bool bot_url =
      ds >= 3 && t.substr(ds - 3, 3) == "bot" && (ds == 3 || !IsWordChar(t[ds - 4]));
  if (ds > 0 && IsWordChar(t[ds - 1]) && !bot_url) return;
  out->push_back({ds, end});
}

// `scheme://user:password@host`: only the password is redacted. `end` is just past an '@'.
void ConfirmUrlPassword(std::string_view t, size_t end, std::vector<Span>* out) {
  const size_t lo = end > kUrlBack ? end - kUrlBack : 0;
  const size_t at = end - 1;
  const size_t sep = t.substr(lo, at - lo).rfind("://");
  if (sep == std::string_view::npos) return;
  const size_t scheme_end = lo + sep;
  size_t s = scheme_end;
  while (s > 0 && scheme_end - s < 32 &&
         (IsAlnum(t[s - 1]) || t[s - 1] == '+' || t[s - 1] == '.' || t[s - 1] == '-')) {
    --s;
  }
  if (s == scheme_end || !IsAlpha(t[s]) || (s > 0 && IsAlnum(t[s - 1]))) return;
  const size_t user = scheme_end + 3;
  const size_t colon = t.substr(user, at - user).find(':');
  if (colon == std::string_view::npos) return;
  const size_t ps = user + colon + 1;
  // A password may itself contain '@'; the host starts after the last one.
  size_t pe = at;
  for (size_t i = end; i < t.size() && i - end < 256; ++i) {
    const char c = t[i];
    if (static_cast<unsigned char>(c) <= ' ' || c == '/' || c == '?' || c == '#' || c == '"' ||
        c == '\'') {
      break;
    }
    if (c == '@') pe = i;
  }
  const std::string_view password = t.substr(ps, pe - ps);
  if (password.empty() || std::strchr("$<%{[*", password.front()) != nullptr) return;
  if (std::all_of(password.begin(), password.end(), [](char c) { return c == '*'; })) return;
  out->push_back({ps, pe});
}

}  // namespace

struct RuleSet::Scan {
  const RuleSet* rules;
  std::string_view text;
  std::vector<Span>* out;
  size_t last_key_value_end;
  StopCache stop_cache;
};

RuleSet::RuleSet() {
  RE2::Options options;
  options.set_log_errors(false);
  for (const TokenRule& rule : kTokenRules) {
    token_res_.push_back(std::make_unique<RE2>(rule.re2, options));
    if (!token_res_.back()->ok()) {
      throw std::runtime_error("scrub: bad rule " + std::string(rule.re2));
    }
  }

  std::vector<const char*> patterns;
  std::vector<unsigned> flags;
  std::vector<unsigned> ids;
  for (size_t i = 0; i < kNumPrefilters; ++i) {
    const Prefilter& pf = kPrefilters[i];
    patterns.push_back(pf.hs);
    flags.push_back(pf.flags);
    ids.push_back(static_cast<unsigned>(i));
    size_t width = 0;
    if (pf.check == Check::kToken) {
      hs_expr_info_t* info = nullptr;
      hs_compile_error_t* error = nullptr;
      if (hs_expression_info(pf.hs, pf.flags, &info, &error) != HS_SUCCESS) {
        hs_free_compile_error(error);
        throw std::runtime_error("scrub: bad prefilter " + std::string(pf.hs));
      }
      const bool fixed = info->min_width == info->max_width;
      width = info->min_width;
      std::free(info);
      if (!fixed) throw std::runtime_error("scrub: variable-width prefilter " + std::string(pf.hs));
    }
    widths_.push_back(width);
  }
  hs_database_t* db = nullptr;
  hs_compile_error_t* error = nullptr;
  if (hs_compile_multi(patterns.data(), flags.data(), ids.data(),
                       static_cast<unsigned>(patterns.size()), HS_MODE_BLOCK, nullptr, &db,
                       &error) != HS_SUCCESS) {
    std::string message = "scrub: hyperscan: ";
    message += error != nullptr && error->message != nullptr ? error->message : "unknown error";
    hs_free_compile_error(error);
    throw std::runtime_error(message);
  }
  db_.reset(db);
}

RuleSet::~RuleSet() = default;

void RuleSet::Find(std::string_view text, std::vector<Span>* out) const {
  if (text.empty()) return;
  Scan scan{this, text, out, 0, {}};
  ScanWithThreadScratch(db_.get(), text, &RuleSet::OnHit, &scan);
}

int RuleSet::OnHit(unsigned id, unsigned long long, unsigned long long to, unsigned, void* ctx) {
  auto* scan = static_cast<Scan*>(ctx);
  scan->rules->Confirm(id, static_cast<size_t>(to), scan);
  return 0;
}

void RuleSet::ConfirmToken(int rule, size_t start, std::string_view t,
                           std::vector<Span>* out) const {
  if (kTokenRules[rule].word_start && start > 0 && IsWordChar(t[start - 1])) return;
  const RE2& re = *token_res_[rule];
  const size_t limit = std::min(t.size(), start + kTokenRules[rule].max_len);
  re2::StringPiece m[2];
  const int groups = 1 + re.NumberOfCapturingGroups();
  if (re.Match(Piece(t), start, limit, RE2::ANCHOR_START, m, groups)) {
    const re2::StringPiece& g = groups > 1 ? m[1] : m[0];
    const size_t b = static_cast<size_t>(g.data() - t.data());
    out->push_back({b, b + g.size()});
  }
}

void RuleSet::Confirm(unsigned id, size_t end, Scan* scan) const {
  const Prefilter& pf = kPrefilters[id];
  const std::string_view t = scan->text;
  switch (pf.check) {
    case Check::kToken:
      ConfirmToken(pf.token_rule, end - widths_[id], t, scan->out);
      return;
    case Check::kJwt: {
      // The header segment is the run of base64url bytes before the '.' and must open with
      // "eyJ" ('{"'); the payload and signature are then matched anchored.
      const size_t dot = end - 4;
      size_t start = dot;
      while (start > 0 && dot - start < 520 && IsUrlSafeB64(t[start - 1])) --start;
      if (t.substr(start, 3) != "eyJ") return;
      ConfirmToken(kJwt, start, t, scan->out);
      return;
    }
    case Check::kPem: {
      const size_t lo = end > kPemHeaderBack ? end - kPemHeaderBack : 0;
      const size_t rel = t.substr(lo, end - lo).rfind("-----BEGIN");
      if (rel == std::string_view::npos) return;
      ConfirmPem(t, lo + rel, scan->out);
      return;
    }
    case Check::kTelegram:
      ConfirmTelegram(t, end, scan->out);
      return;
    case Check::kUrlPassword:
      ConfirmUrlPassword(t, end, scan->out);
      return;
    case Check::kKeyword: {
      // The rest of the key, an optional closing quote, blanks, then ':' or '='.
      size_t i = end;
      while (i < t.size() && i - end < 48 && IsKeyChar(t[i])) ++i;
      if (i + 1 < t.size() && t[i] == '\\' && (t[i + 1] == '"' || t[i + 1] == '\'')) {
        i += 2;
      } else if (i < t.size() && (t[i] == '"' || t[i] == '\'')) {
        ++i;
      }
      const size_t blanks = i;
      while (i < t.size() && IsBlank(t[i]) && i - blanks < 8) ++i;
      if (i >= t.size() || (t[i] != ':' && t[i] != '=')) return;
      // Several keywords of one key ("secret_key") share a separator.
      if (i + 1 == scan->last_key_value_end) return;
      scan->last_key_value_end = i + 1;
      ConfirmKeyValue(t, i + 1, &scan->stop_cache, scan->out);
      return;
    }
    case Check::kBearer:
      ConfirmBearer(t, end, scan->out);
      return;
  }
}

}  // namespace clawtools::scrub
