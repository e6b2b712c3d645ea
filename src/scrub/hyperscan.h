// Internal to clawtools_scrub: ownership of Hyperscan databases and per-thread scratch space.

#ifndef CLAWTOOLS_SCRUB_HYPERSCAN_H_
#define CLAWTOOLS_SCRUB_HYPERSCAN_H_

#include <hs/hs.h>

#include <memory>

namespace clawtools::scrub {

struct HsDatabaseDeleter {
  void operator()(hs_database_t* db) const { hs_free_database(db); }
};
using HsDatabase = std::unique_ptr<hs_database_t, HsDatabaseDeleter>;

// This thread's scratch space, grown to fit `db`. Hyperscan needs one scratch per concurrent scan;
// a thread-local one lets any number of threads share a Scrubber without a pool or a lock. The
// result stays valid until the thread exits; a scan callback must not start another scan.
// Throws std::bad_alloc if the scratch cannot be allocated.
hs_scratch_t* ThreadScratch(const hs_database_t* db);

}  // namespace clawtools::scrub

#endif  // CLAWTOOLS_SCRUB_HYPERSCAN_H_
