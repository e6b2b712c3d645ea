// Credential scrubbing for tool output before it reaches an LLM or a user.
//
// A Scrubber replaces every detected secret with "[REDACTED]". Built-in rules cover provider API
// keys and tokens (OpenAI, Anthropic, GitHub, AWS, Google, Slack, Stripe, Hugging Face, GitLab,
// npm, Telegram), JWTs, PEM private key blocks, Authorization/Bearer credentials, passwords in
// URLs, and values of credential-like keys (`password=...`, `"api_key": "..."`, `FOO_SECRET=...`).
// For key/value and URL forms only the value is replaced, so `password=hunter22` becomes
// `password=[REDACTED]`. Overlapping or touching secrets become a single "[REDACTED]".
//
// Matching is linear in the input (no backtracking), so no input can make a scrub slow. Each
// secret is recognised from a bounded neighbourhood: a token longer than 4 KiB (16 KiB for a PEM
// block) is redacted up to that length only.

#ifndef CLAWTOOLS_SCRUB_SCRUBBER_H_
#define CLAWTOOLS_SCRUB_SCRUBBER_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace clawtools {

namespace scrub {
class RuleSet;
class SecretSet;
struct Span;
}  // namespace scrub

class Scrubber {
 public:
  static constexpr std::string_view kRedacted = "[REDACTED]";

  // Compiles the built-in rules. Throws std::runtime_error if the regex engine is unusable on
  // this machine (Hyperscan needs SSSE3).
  Scrubber();
  ~Scrubber();
  Scrubber(const Scrubber&) = delete;
  Scrubber& operator=(const Scrubber&) = delete;

  // Returns `in` with every secret replaced by kRedacted. Any bytes are accepted (binary, NULs,
  // invalid UTF-8); bytes outside secrets are copied unchanged. Thread-safe.
  std::string Scrub(std::string_view in) const;

  // True if Scrub(in) would change anything. Thread-safe.
  bool Contains(std::string_view in) const;

  // Registers the exact value of a known secret (a configured API key, a credential injected into
  // a child's environment). From then on the value, its base64 forms (standard and URL-safe, with
  // and without padding) and its percent-encoded forms are redacted wherever they occur. Returns
  // false, changing nothing, if the value is shorter than 6 bytes, longer than 4096 bytes, or
  // already registered. Safe to call while other threads scrub: a scrub uses the set of secrets
  // that was current when it started.
  bool AddSecret(std::string_view value);

  // Number of distinct values registered with AddSecret.
  size_t secret_count() const;

  // Scrubs a byte stream delivered in chunks of any size. The concatenated output passed to
  // `sink` is identical to Scrub() of the concatenated input, including secrets that straddle
  // chunk boundaries. Memory stays bounded (about 100 KiB plus twice `flush_bytes`, independent of
  // the input length). Output lags input: bytes that could still belong to a secret are held back
  // until more input or Finish() arrives. Not thread-safe; the Scrubber must outlive the Stream.
  class Stream {
   public:
    // `flush_bytes`: how much new input to collect before a scan. Smaller lowers latency;
    // larger amortises the ~30 KiB of context every scan re-reads (throughput).
    Stream(const Scrubber& scrubber, std::function<void(std::string_view)> sink,
           size_t flush_bytes = 256 * 1024);
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    void Write(std::string_view chunk);
    // Flushes everything held back. Further Write() and Finish() calls do nothing.
    void Finish();

   private:
    void Process(bool final);

    const Scrubber& scrubber_;
    std::function<void(std::string_view)> sink_;
    size_t flush_bytes_;
    std::string buf_;            // input from `base_` on: kept context, then bytes not yet emitted
    size_t emitted_ = 0;         // offset in buf_ of the first byte not yet emitted
    bool in_redaction_ = false;  // the last emitted bytes were a kRedacted ending at `emitted_`
    bool finished_ = false;
  };

 private:
  std::shared_ptr<const scrub::SecretSet> Secrets() const;
  // Appends to `out` the spans to redact in `text` (shorter than 4 GiB), unsorted and unmerged.
  void FindSpans(std::string_view text, std::vector<scrub::Span>* out) const;

  std::unique_ptr<const scrub::RuleSet> rules_;
  std::mutex add_mu_;              // serialises AddSecret's rebuilds
  mutable std::mutex secrets_mu_;  // guards the secrets_ pointer only, never a scan
  std::shared_ptr<const scrub::SecretSet> secrets_;
};

}  // namespace clawtools

#endif  // CLAWTOOLS_SCRUB_SCRUBBER_H_
