#include "scrub/hyperscan.h"

#include <new>

namespace clawtools::scrub {
namespace {

struct ScratchHolder {
  hs_scratch_t* scratch = nullptr;
  ~ScratchHolder() { hs_free_scratch(scratch); }
};

}  // namespace

hs_scratch_t* ThreadScratch(const hs_database_t* db) {
  thread_local ScratchHolder holder;
  // Cheap when the scratch is already large enough for `db`.
  if (hs_alloc_scratch(db, &holder.scratch) != HS_SUCCESS) throw std::bad_alloc();
  return holder.scratch;
}

}  // namespace clawtools::scrub
