#include "tools/fs/search.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

#include "tools/fs/args.h"
#include "tools/fs/dir_walker.h"
#include "tools/fs/glob_pattern.h"
#include "tools/fs/text.h"
#include "tools/fs/text_matcher.h"

namespace clawtools {
namespace {

constexpr size_t kSniffBytes = 8192;
// Matches kept in memory before the walk stops: the model never sees more than head_limit.
constexpr size_t kMaxStoredLines = 20000;
constexpr size_t kMaxStoredFiles = 100000;

Json Schema() {
  return Json::parse(R"({
    "type": "object",
    "properties": {
      "pattern": {"type": "string", "description": "Regular expression (RE2 syntax, like ripgrep: \\bword\\b, foo.*bar, (?i)case). ^ and $ match at line starts and ends. Plain text is matched literally."},
      "path": {"type": "string", "description": "Folder or file to search, relative to the workspace or absolute inside it (default: the workspace root)."},
      "glob": {"type": "string", "description": "Only search files matching this glob, e.g. \"*.py\", \"*.{ts,tsx}\", \"src/**/*.rs\". A glob without '/' matches file names at any depth."},
      "output_mode": {"type": "string", "enum": ["files_with_matches", "content", "count"], "description": "files_with_matches (default): paths of matching files; content: matching lines as path:line:text; count: matches per file."},
      "case_insensitive": {"type": "boolean", "description": "Ignore case (default false)."},
      "-i": {"type": "boolean", "description": "Same as case_insensitive."},
      "head_limit": {"type": "integer", "minimum": 0, "description": "Return at most this many entries (files, lines or counts). Default 250; 0 means the default."},
      "offset": {"type": "integer", "minimum": 0, "description": "Skip this many entries first, to page through long results (default 0)."}
    },
    "required": ["pattern"]
  })");
}

enum class Mode { kFiles, kContent, kCount };

struct FileHit {
  std::string path;  // as shown to the model
  bool is_virtual = false;
  size_t count = 0;
  std::vector<std::pair<size_t, std::string>> lines;
};

// Per-thread read buffer, reused across files to avoid an allocation (and zero-fill) per file.
struct Buffer {
  std::unique_ptr<char[]> data;
  size_t cap = 0;
  char* Reserve(size_t n) {
    if (n > cap) {
      cap = std::max(n, cap * 2);
      data.reset(new char[cap]);
    }
    return data.get();
  }
};

// Reads the whole regular file `name` in `dirfd`; nullopt for anything we must skip.
std::optional<std::string_view> ReadForSearch(int dirfd, const char* name, size_t max_bytes,
                                              Buffer& buf) {
  UniqueFd fd(::openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd.valid()) return std::nullopt;
  struct stat st;
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink > 1 ||
      static_cast<size_t>(st.st_size) > max_bytes || st.st_size == 0)
    return std::nullopt;
  size_t want = static_cast<size_t>(st.st_size);
  char* p = buf.Reserve(want);
  size_t got = 0;
  while (got < want) {
    ssize_t n = ::read(fd.get(), p + got, want - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  std::string_view text(p, got);
  if (std::memchr(text.data(), 0, std::min(text.size(), kSniffBytes)) != nullptr)
    return std::nullopt;
  return text;
}

class Searcher {
 public:
  Searcher(const TextMatcher& m, Mode mode, size_t max_line_chars)
      : m_(m), mode_(mode), max_line_chars_(max_line_chars) {}

  // Searches one buffer; true when it matched (and is text).
  bool Run(std::string_view text, FileHit& hit) const {
    if (mode_ == Mode::kFiles) {
      if (!m_.Matches(text)) return false;
      return !HasNulAfterSniff(text);
    }
    size_t pos = 0, line_no = 1, counted = 0;
    while (pos <= text.size()) {
      auto m = m_.Find(text, pos);
      if (!m) break;
      size_t ls = m->first;
      while (ls > pos && text[ls - 1] != '\n') --ls;
      line_no += static_cast<size_t>(std::count(text.begin() + static_cast<long>(counted),
                                                text.begin() + static_cast<long>(ls), '\n'));
      counted = ls;
      const void* nl = std::memchr(text.data() + m->first, '\n', text.size() - m->first);
      size_t le =
          nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
      if (m->first == text.size() && ls == text.size() && hit.count > 0) break;  // final ""
      ++hit.count;
      if (mode_ == Mode::kContent) {
        std::string_view line = text.substr(ls, le - ls);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        std::string_view kept = Utf8Prefix(line, max_line_chars_);
        std::string s(kept);
        if (kept.size() < line.size()) s += " [...]";
        hit.lines.emplace_back(line_no, std::move(s));
      }
      pos = le + 1;
    }
    if (hit.count == 0) return false;
    return !HasNulAfterSniff(text);
  }

 private:
  static bool HasNulAfterSniff(std::string_view text) {
    return text.size() > kSniffBytes &&
           std::memchr(text.data() + kSniffBytes, 0, text.size() - kSniffBytes) != nullptr;
  }
  const TextMatcher& m_;
  Mode mode_;
  size_t max_line_chars_;
};

struct GlobFilter {
  std::vector<std::string> patterns;  // brace-expanded
  // `rel`: path relative to the searched folder.
  bool Accept(std::string_view rel) const {
    if (patterns.empty()) return true;
    size_t slash = rel.rfind('/');
    std::string_view base = slash == std::string_view::npos ? rel : rel.substr(slash + 1);
    for (const auto& p : patterns)
      if (GlobMatch(p, p.find('/') == std::string::npos ? base : rel)) return true;
    return false;
  }
};

std::string_view Below(std::string_view rel, std::string_view dir) {
  if (dir.empty()) return rel;
  return rel.size() > dir.size() ? rel.substr(dir.size() + 1) : std::string_view();
}

}  // namespace

SearchTool::SearchTool(std::shared_ptr<const FsEnv> env)
    : SimpleTool("search",
                 "Search file contents with a regular expression (RE2 syntax, like ripgrep). "
                 "Respects .gitignore and skips .git and binary files. output_mode: "
                 "files_with_matches (default) lists matching files; content shows matching "
                 "lines with line numbers; count gives matches per file. Narrow with path and "
                 "glob (e.g. glob=\"*.py\"). Use this instead of reading many files.",
                 Schema()),
      env_(std::move(env)) {}

Result SearchTool::Execute(const CallContext& ctx, const Json& args) const {
  const FsOptions& o = env_->options();
  auto pattern = StringArg(args, "pattern");
  if (!pattern) return Result::FromError(pattern.error());
  auto path = StringArg(args, "path", ".");
  if (!path) return Result::FromError(path.error());
  if (path->empty()) *path = ".";
  auto glob = StringArg(args, "glob", "");
  if (!glob) return Result::FromError(glob.error());
  auto mode_s = StringArg(args, "output_mode", "files_with_matches");
  if (!mode_s) return Result::FromError(mode_s.error());
  Mode mode;
  if (*mode_s == "files_with_matches")
    mode = Mode::kFiles;
  else if (*mode_s == "content")
    mode = Mode::kContent;
  else if (*mode_s == "count")
    mode = Mode::kCount;
  else
    return Result::Fail("output_mode must be files_with_matches, content or count");
  auto ci1 = BoolArg(args, "case_insensitive", false);
  if (!ci1) return Result::FromError(ci1.error());
  auto ci2 = BoolArg(args, "-i", false);
  if (!ci2) return Result::FromError(ci2.error());
  auto head = IntArg(args, "head_limit", 0, 0, 1 << 30);
  if (!head) return Result::FromError(head.error());
  size_t limit = *head == 0 ? o.search_default_head_limit : static_cast<size_t>(*head);
  auto offset = IntArg(args, "offset", 0, 0, 1 << 30);
  if (!offset) return Result::FromError(offset.error());

  auto matcher = TextMatcher::Compile(*pattern, *ci1 || *ci2);
  if (!matcher) return Result::FromError(matcher.error());
  GlobFilter filter;
  if (!glob->empty()) filter.patterns = ExpandBraces(*glob);
  Searcher searcher(**matcher, mode, o.search_max_line_chars);

  std::mutex mu;
  std::vector<FileHit> hits;
  std::atomic<size_t> stored{0};
  std::atomic<bool> stopped_early{false};
  auto add = [&](FileHit&& h) {
    size_t n = mode == Mode::kContent ? h.lines.size() : 1;
    std::lock_guard lock(mu);
    hits.push_back(std::move(h));
    if (stored.fetch_add(n) + n >= (mode == Mode::kContent ? kMaxStoredLines : kMaxStoredFiles))
      stopped_early = true;
  };

  auto target = env_->Target(ctx, *path, FsAccess::kRead);
  bool found_dir = false;
  if (target) {
    const WorkspaceFs& fs = *target->fs;
    std::string prefix = target->in_workspace ? "" : fs.root_path() + "/";
    auto st = fs.Stat(target->rel);
    if (!st && st.error().code != ErrorCode::kNotFound) return Result::FromError(st.error());
    if (st && S_ISREG(st->st.st_mode)) {
      found_dir = true;
      auto data = fs.ReadFile(target->rel, o.search_max_file_bytes);
      if (!data) return Result::FromError(data.error());
      FileHit h{prefix + st->rel};
      if (!LooksBinary(*data) && searcher.Run(*data, h)) add(std::move(h));
    } else if (st) {
      found_dir = true;
      const std::string start = st->rel;
      auto walked =
          WalkTree(fs, start, WalkOptions{.threads = env_->WalkThreads()}, [&](const WalkEntry& e) {
            if (stopped_early.load(std::memory_order_relaxed) || ctx.cancelled()) return false;
            if (e.type != DT_REG || !filter.Accept(Below(e.rel, start))) return true;
            thread_local Buffer buf;
            auto text =
                ReadForSearch(e.dirfd, std::string(e.name).c_str(), o.search_max_file_bytes, buf);
            if (!text) return true;
            FileHit h{prefix + std::string(e.rel)};
            if (searcher.Run(*text, h)) add(std::move(h));
            return true;
          });
      if (!walked) return Result::FromError(walked.error());
    }
  } else if (target.error().code != ErrorCode::kNotFound) {
    return Result::FromError(target.error());
  }
  if (ctx.cancelled()) return Result::Fail("search cancelled", ErrorCode::kCancelled);

  // Virtual files: routed paths are answered by their router, never by the disk.
  if (auto vrel = env_->VirtualRel(ctx, *path)) {
    for (const auto& r : env_->routers()) {
      auto entries = r->List(ctx, *vrel);
      if (!entries) continue;
      found_dir = found_dir || !entries->empty();
      for (const auto& e : *entries) {
        std::string_view below = e.path;
        if (!vrel->empty()) {
          if (e.path != *vrel && !(e.path.starts_with(*vrel + "/"))) continue;
          below = e.path == *vrel ? std::string_view(e.path) : Below(e.path, *vrel);
        }
        if (!filter.Accept(below)) continue;
        auto data = r->Read(ctx, e.path);
        if (!data || LooksBinary(*data)) continue;
        FileHit h{e.path, true};
        if (searcher.Run(*data, h)) add(std::move(h));
      }
    }
    std::erase_if(hits, [&](const FileHit& h) {
      if (h.is_virtual) return false;
      for (const auto& r : env_->routers())
        if (r->Handles(ctx, h.path)) return true;  // the router's copy is the real one
      return false;
    });
  }
  if (!found_dir) return Result::Fail("no such file or folder: " + *path, ErrorCode::kNotFound);

  std::sort(hits.begin(), hits.end(),
            [](const FileHit& a, const FileHit& b) { return a.path < b.path; });
  hits.erase(std::unique(hits.begin(), hits.end(),
                         [](const FileHit& a, const FileHit& b) { return a.path == b.path; }),
             hits.end());
  if (hits.empty()) return Result::Text("No matches found");

  std::vector<std::string> entries;
  size_t total_matches = 0;
  for (auto& h : hits) {
    total_matches += h.count;
    if (mode == Mode::kFiles)
      entries.push_back(std::move(h.path));
    else if (mode == Mode::kCount)
      entries.push_back(h.path + ":" + std::to_string(h.count));
    else
      for (auto& [n, line] : h.lines)
        entries.push_back(h.path + ":" + std::to_string(n) + ":" + line);
  }
  size_t first = std::min(entries.size(), static_cast<size_t>(*offset));
  size_t last = std::min(entries.size(), first + limit);
  std::string out;
  if (mode == Mode::kFiles)
    out = "Found " + std::to_string(hits.size()) + (hits.size() == 1 ? " file\n" : " files\n");
  else if (mode == Mode::kCount)
    out = "Found " + std::to_string(total_matches) + " matching lines in " +
          std::to_string(hits.size()) + (hits.size() == 1 ? " file\n" : " files\n");
  for (size_t i = first; i < last; ++i) out += entries[i] + "\n";
  if (first > 0 || last < entries.size())
    out += "[Showing entries " + std::to_string(first + 1) + "-" + std::to_string(last) + " of " +
           std::to_string(entries.size()) +
           (last < entries.size() ? ". Use offset=" + std::to_string(last) + " to see more" : "") +
           ", or narrow the search with path or glob.]\n";
  if (stopped_early)
    out +=
        "[The search stopped early after too many matches; results are incomplete. Narrow "
        "the pattern, path or glob.]\n";
  return Result::Text(std::move(out));
}

}  // namespace clawtools
