#include "scrub_corpus.h"

#include <array>
#include <string_view>

namespace clawtools::bench {
namespace {

// SplitMix64: tiny, and unlike <random> distributions, identical everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  size_t Below(size_t n) { return static_cast<size_t>(Next() % n); }
  template <typename T, size_t N>
  const T& Pick(const std::array<T, N>& items) {
    return items[Below(N)];
  }

 private:
  uint64_t state_;
};

constexpr std::string_view kAlnum =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
constexpr std::string_view kUpperDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
constexpr std::string_view kB64Url =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::string_view kB64 =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kHex = "0123456789abcdef";
constexpr std::string_view kDigits = "0123456789";

std::string Rand(Rng& rng, std::string_view alphabet, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(alphabet[rng.Below(alphabet.size())]);
  return s;
}

// Random credential with at least one digit and one letter, as real ones have.
std::string Cred(Rng& rng, std::string_view alphabet, size_t n) {
  std::string s = Rand(rng, alphabet, n);
  s[0] = 'k';
  s[n / 2] = '7';
  return s;
}

std::string Uuid(Rng& rng) {
  return Rand(rng, kHex, 8) + "-" + Rand(rng, kHex, 4) + "-4" + Rand(rng, kHex, 3) + "-a" +
         Rand(rng, kHex, 3) + "-" + Rand(rng, kHex, 12);
}

constexpr std::array<std::string_view, 6> kLevels = {"INFO", "DEBUG", "WARN",
                                                     "INFO", "ERROR", "INFO"};
constexpr std::array<std::string_view, 8> kPaths = {
    "/api/v1/items",  "/api/v1/users/me", "/healthz",       "/v1/chat/completions",
    "/static/app.js", "/auth/callback",   "/api/v1/search", "/metrics"};
constexpr std::array<std::string_view, 24> kSource = {
    "    auto it = cache.find(cache_key);",
    "    if (token_count > max_tokens) return Status::kTooLong;",
    "def get_token(self):\n        return self.token",
    "    token = self.tokenizer.encode(text)",
    "    password = request.form['password']",
    "    secret = os.environ.get('SECRET')",
    "const apiKey = process.env.OPENAI_API_KEY;",
    "    for (const auto& [key, value] : headers) out[key] = value;",
    "  std::string token = lexer.NextToken();",
    "  if (kind == Token::Kind::kString) {",
    "    keyboard_layout = \"us\"",
    "    monkey=bananas123",
    "    max_tokens=4096",
    "  // The Bearer token is sent in the Authorization header.",
    "    return hashlib.sha256(data).hexdigest()",
    "import numpy as np\nimport pandas as pd",
    "#include <string_view>",
    "func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {",
    "    let token = req.headers.authorization;",
    "    password_hint=\"first pet\"",
    "  sort_key: created_at",
    "    primary_key: id",
    "    secret: Option<String>,",
    "    if token == expected_token:",
};
constexpr std::array<std::string_view, 12> kEnv = {
    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME=/home/agent",
    "LANG=C.UTF-8",
    "PWD=/home/agent/workspace/project",
    "TERM=xterm-256color",
    "SHELL=/bin/bash",
    "HOSTNAME=runner-7f9c",
    "PASSWORD_HINT=",
    "TOKEN_URL=https://oauth2.googleapis.com/token",
    "DATABASE_HOST=db.internal",
    "NODE_ENV=production",
    "KEYCLOAK_URL=https://sso.example.com/auth",
};

void AppendLog(Rng& rng, std::string* out) {
  out->append("2024-05-");
  out->append(Rand(rng, "12", 1) + Rand(rng, kDigits, 1) + "T" + Rand(rng, "01", 1) +
              Rand(rng, kDigits, 1) + ":" + Rand(rng, "012345", 1) + Rand(rng, kDigits, 1) + ":" +
              Rand(rng, "012345", 1) + Rand(rng, kDigits, 1) + "." + Rand(rng, kDigits, 3) + "Z ");
  out->append(rng.Pick(kLevels));
  out->append(" [worker-" + Rand(rng, kDigits, 1) + "] request_id=" + Uuid(rng) +
              " method=GET path=");
  out->append(rng.Pick(kPaths));
  out->append("/" + Rand(rng, kDigits, 4) + " status=200 duration_ms=" + Rand(rng, kDigits, 2) +
              " task=task-" + Rand(rng, kHex, 32) + " user_agent=\"curl/8.1.2\"\n");
}

void AppendJson(Rng& rng, std::string* out) {
  out->append("{\"id\": " + Rand(rng, kDigits, 6) + ", \"name\": \"item-" + Rand(rng, kAlnum, 8) +
              "\", \"sha\": \"" + Rand(rng, kHex, 40) + "\", \"digest\": \"sha256:" +
              Rand(rng, kHex, 64) + "\", \"token_count\": " + Rand(rng, kDigits, 3) +
              ", \"model\": \"claude-sonnet\", \"tags\": [\"a\", \"b\"], \"cache_key\": \"" +
              Rand(rng, kHex, 16) + "\"}\n");
}

void AppendBlob(Rng& rng, std::string* out) {
  out->append("<img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA" + Rand(rng, kB64, 600) +
              "==\">\n");
}

// Appends one line with a secret; records the secret.
void AppendSecret(Rng& rng, std::string* out, std::vector<std::string>* secrets) {
  std::string s;
  switch (rng.Below(14)) {
    case 0:
      s = "sk-proj-" + Cred(rng, kB64Url, 48);
      out->append("OPENAI_API_KEY=" + s + "\n");
      break;
    case 1:
      s = "ghp_" + Cred(rng, kAlnum, 36);
      out->append("export GITHUB_TOKEN=" + s + "\n");
      break;
    case 2:
      s = "AKIA" + Rand(rng, kUpperDigits, 16);
      out->append("aws_access_key_id = " + s + "\n");
      secrets->push_back(s);
      s = Cred(rng, kB64, 40);
      out->append("aws_secret_access_key = " + s + "\n");
      break;
    case 3:
      s = Cred(rng, kAlnum, 32);
      out->append("{\"service\": \"billing\", \"api_key\": \"" + s + "\", \"region\": \"eu\"}\n");
      break;
    case 4:
      s = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + Cred(rng, kB64Url, 60) + "." +
          Rand(rng, kB64Url, 43);
      out->append("> Authorization: Bearer " + s + "\n");
      break;
    case 5:
      s = Cred(rng, kAlnum, 16);
      out->append("DATABASE_URL=postgres://app:" + s + "@db.internal:5432/app\n");
      break;
    case 6:
      s = "xoxb-" + Rand(rng, kDigits, 12) + "-" + Rand(rng, kDigits, 13) + "-" +
          Cred(rng, kAlnum, 24);
      out->append("slack: posting with " + s + " to #alerts\n");
      break;
    case 7:
      s = "sk_live_" + Cred(rng, kAlnum, 24);
      out->append("stripe.api_key = \"" + s + "\"\n");
      break;
    case 8:
      s = "hf_" + Cred(rng, kAlnum, 34);
      out->append("Downloading with token " + s + "\n");
      break;
    case 9:
      s = Rand(rng, "123456789", 1) + Rand(rng, kDigits, 8) + ":AA" + Cred(rng, kB64Url, 33);
      out->append("GET https://api.telegram.org/bot" + s + "/getUpdates\n");
      break;
    case 10: {
      std::string body;
      for (int i = 0; i < 6; ++i) body += Rand(rng, kB64, 64) + "\n";
      out->append("-----BEGIN RSA PRIVATE KEY-----\n" + body + "-----END RSA PRIVATE KEY-----\n");
      s = body.substr(0, 64);
      break;
    }
    case 11:
      s = Cred(rng, kAlnum, 14);
      out->append("mysql --user=root --password=" + s + " -h db\n");
      break;
    case 12:
      s = "AIza" + Cred(rng, kB64Url, 35);
      out->append("  \"key\": \"" + s + "\",\n");
      break;
    default:
      s = "sk-ant-api03-" + Cred(rng, kB64Url, 93) + "AA";
      out->append("ANTHROPIC_API_KEY=" + s + "\n");
      break;
  }
  secrets->push_back(s);
}

}  // namespace

ScrubCorpus MakeScrubCorpus(size_t bytes, bool with_secrets, uint64_t seed) {
  Rng rng(seed);
  ScrubCorpus corpus;
  corpus.text.reserve(bytes + 4096);
  while (corpus.text.size() < bytes) {
    const size_t kind = rng.Below(100);
    if (with_secrets && kind < 4) {
      AppendSecret(rng, &corpus.text, &corpus.secrets);
    } else if (kind < 45) {
      AppendLog(rng, &corpus.text);
    } else if (kind < 65) {
      AppendJson(rng, &corpus.text);
    } else if (kind < 88) {
      corpus.text.append(rng.Pick(kSource));
      corpus.text.push_back('\n');
    } else if (kind < 98) {
      corpus.text.append(rng.Pick(kEnv));
      corpus.text.push_back('\n');
    } else {
      AppendBlob(rng, &corpus.text);
    }
  }
  return corpus;
}

}  // namespace clawtools::bench
