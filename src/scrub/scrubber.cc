#include "scrub/scrubber.h"

#include <algorithm>

#include "scrub/rules.h"
#include "scrub/secret_set.h"
#include "scrub/span.h"

namespace clawtools {
namespace {

using scrub::Span;

// Hyperscan scans at most 4 GiB at once; larger inputs go through Stream.
constexpr size_t kMaxBlock = size_t{1} << 30;
// Context a Stream keeps before its first unemitted byte: enough for every span that reaches the
// unemitted part to be found with its full look-behind, and for every span found with a truncated
// look-behind to end before the unemitted part (so it is dropped, never emitted).
constexpr size_t kKeepBehind = scrub::kMaxLookBehind + scrub::kMaxSpan;
constexpr size_t kMinSlice = 64 * 1024;

// Appends `text` with `spans` (sorted, merged, within text) replaced by kRedacted.
void Redact(std::string_view text, const std::vector<Span>& spans, std::string* out) {
  size_t pos = 0;
  for (const Span& s : spans) {
    out->append(text.substr(pos, s.begin - pos));
    out->append(Scrubber::kRedacted);
    pos = s.end;
  }
  out->append(text.substr(pos));
}

}  // namespace

Scrubber::Scrubber() : rules_(std::make_unique<scrub::RuleSet>()) {}

Scrubber::~Scrubber() = default;

std::shared_ptr<const scrub::SecretSet> Scrubber::Secrets() const {
  std::lock_guard lock(secrets_mu_);
  return secrets_;
}

void Scrubber::FindSpans(std::string_view text, std::vector<Span>* out) const {
  rules_->Find(text, out);
  if (const auto secrets = Secrets()) secrets->Find(text, out);
}

std::string Scrubber::Scrub(std::string_view in) const {
  std::string out;
  if (in.size() > kMaxBlock) {
    out.reserve(in.size());
    Stream stream(
        *this, [&out](std::string_view piece) { out.append(piece); }, kMaxBlock / 16);
    stream.Write(in);
    stream.Finish();
    return out;
  }
  std::vector<Span> spans;
  FindSpans(in, &spans);
  if (spans.empty()) return std::string(in);
  scrub::MergeSpans(&spans);
  out.reserve(in.size());
  Redact(in, spans, &out);
  return out;
}

bool Scrubber::Contains(std::string_view in) const {
  if (in.size() > kMaxBlock) return Scrub(in) != in;
  std::vector<Span> spans;
  FindSpans(in, &spans);
  return !spans.empty();
}

bool Scrubber::AddSecret(std::string_view value) {
  if (value.size() < 6 || value.size() > scrub::kMaxSecretValue) return false;
  std::lock_guard add_lock(add_mu_);
  const auto current = Secrets();
  std::vector<std::string> values;
  if (current) values = current->values();
  if (std::find(values.begin(), values.end(), value) != values.end()) return false;
  values.emplace_back(value);
  auto next = scrub::SecretSet::Build(std::move(values));
  if (!next) return false;
  std::lock_guard lock(secrets_mu_);
  secrets_ = std::move(next);
  return true;
}

size_t Scrubber::secret_count() const {
  const auto secrets = Secrets();
  return secrets ? secrets->values().size() : 0;
}

Scrubber::Stream::Stream(const Scrubber& scrubber, std::function<void(std::string_view)> sink,
                         size_t flush_bytes)
    : scrubber_(scrubber), sink_(std::move(sink)), flush_bytes_(std::max<size_t>(flush_bytes, 1)) {}

Scrubber::Stream::~Stream() = default;

void Scrubber::Stream::Write(std::string_view chunk) {
  if (finished_) return;
  // Taking a huge chunk in slices keeps memory bounded; a small flush_bytes still takes small
  // chunks whole, so that one Write costs at most one pass.
  const size_t slice = std::max(flush_bytes_, kMinSlice);
  while (!chunk.empty()) {
    const size_t take = std::min(chunk.size(), slice);
    buf_.append(chunk.substr(0, take));
    chunk.remove_prefix(take);
    if (buf_.size() - emitted_ >= scrub::kMaxLookAhead + flush_bytes_) Process(false);
  }
}

void Scrubber::Stream::Finish() {
  if (finished_) return;
  finished_ = true;
  Process(true);
  buf_.clear();
  buf_.shrink_to_fit();
}

// Emits a prefix of the unemitted bytes. A span is trusted only if its whole neighbourhood
// (span.h) is in the buffer: it then starts at least kMaxLookAhead before the buffer's end, unless
// this is the final pass. The cut moves past a trusted span that straddles it; a later span that
// continues a redaction at the cut is coalesced through in_redaction_, exactly as MergeSpans
// would have merged it in a one-shot Scrub().
void Scrubber::Stream::Process(bool final) {
  const std::string_view text = buf_;
  size_t cut = final ? text.size() : text.size() - scrub::kMaxLookAhead;
  std::vector<Span> spans;
  scrubber_.FindSpans(text, &spans);
  std::erase_if(spans, [&](const Span& s) { return s.end <= emitted_ || s.begin >= cut; });
  scrub::MergeSpans(&spans);
  if (!spans.empty()) cut = std::max(cut, spans.back().end);

  size_t pos = emitted_;
  bool redacting = in_redaction_;
  for (const Span& s : spans) {
    const size_t begin = std::max(s.begin, emitted_);
    if (begin > pos) {
      sink_(text.substr(pos, begin - pos));
      redacting = false;
    }
    if (!redacting) sink_(kRedacted);
    redacting = true;
    pos = s.end;
  }
  if (cut > pos) {
    sink_(text.substr(pos, cut - pos));
    redacting = false;
  }
  in_redaction_ = redacting;
  emitted_ = cut;
  if (emitted_ > kKeepBehind) {
    const size_t drop = emitted_ - kKeepBehind;
    buf_.erase(0, drop);
    emitted_ -= drop;
  }
}

}  // namespace clawtools
