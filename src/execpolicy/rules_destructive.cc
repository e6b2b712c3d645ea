// destructive_fs and disk: deleting or overwriting what the workspace does not own.
#include <algorithm>

#include "execpolicy/args.h"
#include "execpolicy/paths.h"
#include "execpolicy/rules.h"

namespace clawtools::execpolicy {
namespace {

constexpr std::string_view kFs = "destructive_fs";
constexpr std::string_view kDisk = "disk";

const ArgSpec kRm = {"",
                     {{"recursive", 'r'},
                      {"force", 'f'},
                      {"dir", 'd'},
                      {"verbose", 'v'},
                      {"interactive", 0, false},
                      {"one-file-system"},
                      {"no-preserve-root"},
                      {"preserve-root"}}};

void Rm(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  ParsedArgs a = ParseArgs(inv.argv, 1, kRm);
  const bool recursive = a.Has('r') || a.Has('R');
  const std::string& m = inv.Canonical();
  if (a.HasLong("no-preserve-root")) {
    return out.Deny(kFs, "rm_no_preserve_root", "rm --no-preserve-root is asking to delete /", m);
  }
  for (size_t i : a.operands) {
    const Field& op = inv.argv[i];
    if (IsCriticalPath(op)) {
      return out.Deny(kFs, recursive ? "rm_recursive_critical" : "rm_critical",
                      "rm deletes " + op.text + ", outside the workspace or part of the system", m);
    }
  }
  if (!recursive) return;
  for (size_t i : a.operands) {
    if (inv.argv[i].dynamic) {
      return out.Ask(kFs, "rm_recursive_dynamic",
                     "rm -r deletes " + inv.argv[i].text + ", only known at run time", m);
    }
  }
}

void Find(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  const bool deletes = std::any_of(inv.argv.begin(), inv.argv.end(),
                                   [](const Field& f) { return f.text == "-delete"; });
  if (!deletes) return;
  for (size_t i = 1; i < inv.argv.size(); ++i) {
    const Field& f = inv.argv[i];
    if (f.text.starts_with("-") || f.text == "(" || f.text == "!") break;
    if (IsCriticalPath(f)) {
      return out.Deny(kFs, "find_delete", "find -delete under " + f.text, inv.Canonical());
    }
    if (f.dynamic)
      return out.Ask(kFs, "find_delete_dynamic", "find -delete under a path known only at run time",
                     inv.Canonical());
  }
}

void Windows(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  auto has = [&](std::initializer_list<std::string_view> flags) {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      std::string w = inv.Word(i);
      std::transform(w.begin(), w.end(), w.begin(), ::tolower);
      if (std::find(flags.begin(), flags.end(), w) != flags.end()) return true;
    }
    return false;
  };
  if ((p == "del" || p == "erase") && has({"/f", "/q", "/s"})) {
    out.Deny(kFs, "windows_del", "del /f /s /q deletes without asking", inv.Canonical());
  } else if ((p == "rmdir" || p == "rd") && has({"/s", "/q"})) {
    out.Deny(kFs, "windows_rmdir", "rmdir /s deletes a directory tree", inv.Canonical());
  } else if ((p == "Remove-Item" || p == "ri") && has({"-recurse", "-r"})) {
    out.Deny(kFs, "windows_remove_item", "Remove-Item -Recurse deletes a directory tree",
             inv.Canonical());
  } else if (p == "format" && inv.argv.size() > 1 && inv.Word(1).size() == 2 &&
             inv.Word(1)[1] == ':') {
    out.Deny(kDisk, "windows_format", "format erases a drive", inv.Canonical());
  }
}

void MoveAndSync(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  if (p == "mv") {
    ParsedArgs a =
        ParseArgs(inv.argv, 1, {"tS", {{"target-directory", 't', true}, {"suffix", 'S', true}}});
    if (a.operands.size() < 2) return;
    for (size_t k = 0; k + 1 < a.operands.size(); ++k) {
      const Field& src = inv.argv[a.operands[k]];
      if (IsCriticalPath(src)) {
        return out.Deny(kFs, "mv_critical", "mv moves " + src.text + " away", inv.Canonical());
      }
    }
    const Field& dst = inv.argv[a.operands.back()];
    if (dst.text == "/dev/null")
      out.Deny(kFs, "mv_to_dev_null", "mv to /dev/null destroys the source", inv.Canonical());
  } else if (p == "rsync" && std::any_of(inv.argv.begin(), inv.argv.end(), [](const Field& f) {
               return f.text.starts_with("--delete");
             })) {
    ParsedArgs a = ParseArgs(inv.argv, 1, {"eBfT"});
    if (!a.operands.empty() && IsCriticalPath(inv.argv[a.operands.back()])) {
      out.Deny(kFs, "rsync_delete_critical",
               "rsync --delete into " + inv.argv[a.operands.back()].text, inv.Canonical());
    }
  } else if (p == "shred" || p == "srm" || p == "wipe") {
    ParsedArgs a =
        ParseArgs(inv.argv, 1, {"nsx", {{"iterations", 'n', true}, {"size", 's', true}}});
    for (size_t i : a.operands) {
      if (IsBlockDevice(inv.argv[i]))
        return out.Deny(kDisk, "shred_device", "shred overwrites the disk " + inv.Word(i),
                        inv.Canonical());
      if (IsCriticalPath(inv.argv[i]))
        return out.Deny(kFs, "shred_critical", "shred destroys " + inv.Word(i), inv.Canonical());
    }
  } else if (p == "truncate") {
    ParsedArgs a = ParseArgs(inv.argv, 1, {"rs", {{"size", 's', true}, {"reference", 'r', true}}});
    for (size_t i : a.operands) {
      if (IsCriticalPath(inv.argv[i]))
        return out.Deny(kFs, "truncate_critical", "truncate empties " + inv.Word(i),
                        inv.Canonical());
    }
  }
}

void Disk(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  const std::string& m = inv.Canonical();
  if (p.starts_with("mkfs") || p.starts_with("mke2fs") || p == "mkswap" || p == "mkdosfs" ||
      p == "mkntfs" || p == "wipefs" || p == "blkdiscard" || p == "diskpart") {
    return out.Deny(kDisk, "format", std::string(p) + " erases a file system or disk", m);
  }
  if (p == "fdisk" || p == "sfdisk" || p == "cfdisk" || p == "gdisk" || p == "sgdisk" ||
      p == "parted") {
    const bool listing = std::any_of(inv.argv.begin() + 1, inv.argv.end(), [](const Field& f) {
      return f.text == "-l" || f.text == "--list" || f.text == "print" || f.text == "-p";
    });
    if (!listing)
      return out.Deny(kDisk, "partition", std::string(p) + " rewrites a partition table", m);
  }
  if ((p == "cryptsetup" && std::any_of(inv.argv.begin(), inv.argv.end(),
                                        [](const Field& f) {
                                          return f.text == "luksFormat" || f.text == "erase" ||
                                                 f.text == "luksErase";
                                        })) ||
      (p == "zpool" && inv.argv.size() > 1 && inv.Word(1) == "destroy") ||
      (p == "badblocks" && std::any_of(inv.argv.begin(), inv.argv.end(),
                                       [](const Field& f) { return f.text == "-w"; })) ||
      p == "lvremove" || p == "vgremove" || p == "pvremove" ||
      (p == "hdparm" && std::any_of(inv.argv.begin(), inv.argv.end(), [](const Field& f) {
         return f.text.starts_with("--security-erase") || f.text.starts_with("--trim-sector");
       }))) {
    return out.Deny(kDisk, "erase", std::string(p) + " erases a disk or volume", m);
  }
  if (p == "dd") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      if (!w.starts_with("of=")) continue;
      Field target = inv.argv[i];
      target.text = w.substr(3);
      if (IsBlockDevice(target))
        return out.Deny(kDisk, "dd_device", "dd overwrites the disk " + target.text, m);
      if (IsCriticalPath(target))
        return out.Deny(kDisk, "dd_critical", "dd overwrites " + target.text, m);
      if (target.dynamic)
        return out.Ask(kDisk, "dd_dynamic", "dd writes to a target known only at run time", m);
    }
  }
  if (p == "tee" || p == "cp" || p == "pv" || p == "install" || p == "ddrescue") {
    ParsedArgs a = ParseArgs(inv.argv, 1, {"tS"});
    for (size_t k = 0; k < a.operands.size(); ++k) {
      if (p != "tee" && k + 1 != a.operands.size()) continue;
      if (IsBlockDevice(inv.argv[a.operands[k]])) {
        return out.Deny(kDisk, "write_device",
                        std::string(p) + " writes to the disk " + inv.Word(a.operands[k]), m);
      }
    }
  }
  for (const RedirectInfo& r : inv.redirects) {
    if (r.IsWrite() && IsBlockDevice(r.target)) {
      return out.Deny(kDisk, "redirect_device", "output is written over the disk " + r.target.text,
                      inv.Canonical(true));
    }
  }
}

}  // namespace

std::span<const Rule> DestructiveRules() {
  static constexpr Rule kRules[] = {
      {Rm, "rm unlink"},
      {Find, "find"},
      {Windows, "del erase rmdir rd Remove-Item ri format"},
      {MoveAndSync, "mv rsync shred srm wipe truncate"},
      {Disk,
       "mkfs* mke2fs* mkswap mkdosfs mkntfs wipefs blkdiscard diskpart fdisk sfdisk cfdisk gdisk "
       "sgdisk parted cryptsetup zpool badblocks lvremove vgremove pvremove hdparm dd tee cp pv "
       "install ddrescue",
       /*redirects=*/true},
  };
  return kRules;
}

}  // namespace clawtools::execpolicy
