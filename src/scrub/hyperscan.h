// Internal to clawtools_scrub: ownership of Hyperscan databases and per-thread scratch space.

#ifndef CLAWTOOLS_SCRUB_HYPERSCAN_H_
#define CLAWTOOLS_SCRUB_HYPERSCAN_H_

#include <hs/hs.h>

#include <memory>
#include <string_view>

namespace clawtools::scrub {

struct HsDatabaseDeleter {
  void operator()(hs_database_t* db) const { hs_free_database(db); }
};
using HsDatabase = std::unique_ptr<hs_database_t, HsDatabaseDeleter>;

// hs_scan with this thread's scratch space. Hyperscan needs one scratch per concurrent scan; a
// thread-local one lets any number of threads share a Scrubber without a pool or a lock. The
// scratch is grown only when hs_scan rejects it as too small for `db` (HS_INVALID, checked
// before any byte is scanned): hs_alloc_scratch revalidates the whole database and costs ~10 us,
// which would dominate scrubbing a short tool result. A scan callback must not start another
// scan. Throws std::bad_alloc if the scratch cannot be allocated.
hs_error_t ScanWithThreadScratch(const hs_database_t* db, std::string_view text,
                                 match_event_handler on_match, void* ctx);

}  // namespace clawtools::scrub

#endif  // CLAWTOOLS_SCRUB_HYPERSCAN_H_
