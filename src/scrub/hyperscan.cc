#include "scrub/hyperscan.h"

#include <new>

namespace clawtools::scrub {
namespace {

struct ScratchHolder {
  hs_scratch_t* scratch = nullptr;
  ~ScratchHolder() { hs_free_scratch(scratch); }
};

}  // namespace

hs_error_t ScanWithThreadScratch(const hs_database_t* db, std::string_view text,
                                 match_event_handler on_match, void* ctx) {
  thread_local ScratchHolder holder;
  const auto len = static_cast<unsigned>(text.size());
  if (holder.scratch != nullptr) {
    hs_error_t err = hs_scan(db, text.data(), len, 0, holder.scratch, on_match, ctx);
    if (err != HS_INVALID) return err;
  }
  if (hs_alloc_scratch(db, &holder.scratch) != HS_SUCCESS) throw std::bad_alloc();
  return hs_scan(db, text.data(), len, 0, holder.scratch, on_match, ctx);
}

}  // namespace clawtools::scrub
