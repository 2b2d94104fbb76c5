// edge_sizes: every allocation function (pvalloc too, which Valgrind's
// preload library aborted the program for) at every size and alignment
// where strata's allocator (massif/st_alloc.c) changes behaviour: 0 and 1,
// the free-list link, its size classes' boundaries (16 bytes apart up to
// 1 KiB with the gap, then 4 per octave up to 64 KiB), the first chunk from
// Valgrind's allocator, and the alignments served by a class or not.
//
// Each block is filled with its own byte and checked once all are live, so
// blocks that overlap, or a free list written over a block, are caught.
//   user snapshot 1: every block live; the program prints "HEAP BLOCKS",
//                    the bytes asked for and the blocks, to stdout
//   user snapshot 2: everything freed, each with its own deallocator:
//                    heap 0, blocks 0
// Exit status 0, or 1 with a message if a block was wrong.
#include <malloc.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#include "prog.h"

static const std::size_t kSizes[] = {
    0,     1,     7,     8,     9,     15,    16,    17,    24,    31,    32,    33,
    48,    63,    64,    65,    1000,  1007,  1008,  1009,  1024,  1025,  1264,  1265,
    4080,  4096,  65504, 65519, 65520, 65521, 65536, 65537, 200000};
static const std::size_t kAligns[] = {8, 16, 32, 64, 128, 256, 4096};
static const std::size_t kBigAligns[] = {65536, 1 << 20};
static const std::size_t kBigAlignSizes[] = {0, 1, 16, 17, 65521};

enum Kind {
   kMalloc, kCallocN1, kCalloc1N, kCallocN0, kCalloc0N, kReallocNull, kReallocarray,
   kNewArray, kNew, kNewNothrow, kValloc, kPvalloc,
   kMemalign, kPosixMemalign, kAlignedAlloc, kNewAligned, kNewArrayAligned, kKinds
};
static const Kind kAlignedKinds[] = {kMemalign, kPosixMemalign, kAlignedAlloc, kNewAligned,
                                     kNewArrayAligned};

struct Block {
   unsigned char *p;
   std::size_t size;  // asked for
   std::size_t align;
   Kind kind;
};

static Block blocks[4096];
static std::size_t n_blocks, heap_bytes;

[[noreturn]] static void die(const char *what, std::size_t size, std::size_t align, int kind)
{
   char line[200];
   int n = std::snprintf(line, sizeof line, "edge_sizes: %s (size %zu, alignment %zu, kind %d)\n",
                         what, size, align, kind);
   ssize_t written = write(2, line, n);
   (void)written;
   _exit(1);
}

NOINLINE static void *allocate(Kind kind, std::size_t size, std::size_t align)
{
   void *p = nullptr;
   switch (kind) {
   case kMalloc: return AFTER_CALL(malloc(size));
   case kCallocN1: return AFTER_CALL(calloc(size, 1));
   case kCalloc1N: return AFTER_CALL(calloc(1, size));
   case kCallocN0: return AFTER_CALL(calloc(size, 0));
   case kCalloc0N: return AFTER_CALL(calloc(0, size));
   case kReallocNull: return AFTER_CALL(realloc(nullptr, size));
   case kReallocarray: return AFTER_CALL(reallocarray(nullptr, size, 1));
   case kNewArray: return AFTER_CALL(new char[size]);
   case kNew: return AFTER_CALL(::operator new(size));
   case kNewNothrow: return AFTER_CALL(::operator new(size, std::nothrow));
   case kValloc: return AFTER_CALL(valloc(size));
   case kPvalloc: return AFTER_CALL(pvalloc(size));
   case kMemalign: return AFTER_CALL(memalign(align, size));
   case kPosixMemalign:
      if (posix_memalign(&p, align, size) != 0) return nullptr;
      return p;
   case kAlignedAlloc: return AFTER_CALL(aligned_alloc(align, size));
   case kNewAligned: return AFTER_CALL(::operator new(size, std::align_val_t(align)));
   case kNewArrayAligned: return AFTER_CALL(::operator new[](size, std::align_val_t(align)));
   case kKinds: break;
   }
   return nullptr;
}

static void deallocate(const Block &b)
{
   switch (b.kind) {
   case kNewArray: delete[] reinterpret_cast<char *>(b.p); break;
   case kNew: ::operator delete(b.p, b.size); break;
   case kNewNothrow: ::operator delete(b.p, std::nothrow); break;
   case kNewAligned: ::operator delete(b.p, b.size, std::align_val_t(b.align)); break;
   case kNewArrayAligned: ::operator delete[](b.p, std::align_val_t(b.align)); break;
   default: free(b.p); break;
   }
}

// The bytes a kind asks for, for `size`: pvalloc rounds it up to a page
// (glibc's; 0 stays 0).
static std::size_t asked(Kind kind, std::size_t size)
{
   std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
   if (kind == kPvalloc) return (size + page - 1) / page * page;
   return kind == kCallocN0 || kind == kCalloc0N ? 0 : size;
}

static void keep(void *p, Kind kind, std::size_t size, std::size_t align)
{
   std::size_t n = asked(kind, size);
   std::size_t min_align = align > 16 ? align : 16;
   if (kind == kValloc || kind == kPvalloc) min_align = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
   if (p == nullptr) die("no block", size, align, kind);
   if (reinterpret_cast<std::uintptr_t>(p) % min_align != 0) die("misaligned", size, align, kind);
   if (n_blocks == sizeof blocks / sizeof blocks[0]) die("too many blocks", size, align, kind);
   if (malloc_usable_size(p) < n) die("usable size too small", size, align, kind);
   for (std::size_t i = 0; i < n; i++)
      if ((kind == kCallocN1 || kind == kCalloc1N) && static_cast<unsigned char *>(p)[i] != 0)
         die("calloc's block is not zeroed", size, align, kind);
   blocks[n_blocks] = {static_cast<unsigned char *>(p), n, align, kind};
   std::memset(p, static_cast<int>(n_blocks & 0xff), n);
   n_blocks++;
   heap_bytes += n;
}

static void allocate_all()
{
   for (int kind = kMalloc; kind <= kPvalloc; kind++)
      for (std::size_t size : kSizes) keep(allocate(Kind(kind), size, 0), Kind(kind), size, 0);
   for (Kind kind : kAlignedKinds) {
      for (std::size_t align : kAligns)
         for (std::size_t size : kSizes) keep(allocate(kind, size, align), kind, size, align);
      for (std::size_t align : kBigAligns)
         for (std::size_t size : kBigAlignSizes)
            keep(allocate(kind, size, align), kind, size, align);
   }
}

// realloc up and down through every size, each step checking that the bytes
// kept came along; realloc(p, 0) frees the block and gives NULL.
NOINLINE static void realloc_through_sizes()
{
   unsigned char *p = nullptr;
   std::size_t held = 0;
   for (int pass = 0; pass < 2; pass++) {
      for (std::size_t k = 0; k < sizeof kSizes / sizeof kSizes[0]; k++) {
         std::size_t size = kSizes[pass == 0 ? k : sizeof kSizes / sizeof kSizes[0] - 1 - k];
         unsigned char *q = static_cast<unsigned char *>(realloc(p, size));
         if (size == 0 && p != nullptr) {
            if (q != nullptr) die("realloc(p, 0) gave a block", size, 0, -1);
            p = nullptr;
            held = 0;
            continue;
         }
         if (q == nullptr) die("realloc failed", size, 0, -1);
         for (std::size_t i = 0; i < held && i < size; i++)
            if (q[i] != 0x5a) die("realloc lost bytes", size, 0, -1);
         std::memset(q, 0x5a, size);
         p = q;
         held = size;
      }
   }
   free(p);
}

static void check_all()
{
   for (std::size_t i = 0; i < n_blocks; i++)
      for (std::size_t j = 0; j < blocks[i].size; j++)
         if (blocks[i].p[j] != static_cast<unsigned char>(i & 0xff))
            die("a block was overwritten", blocks[i].size, blocks[i].align, blocks[i].kind);
}

int main()
{
   // The reproducer first: three empty blocks freed in order.
   void *a = malloc(0), *b = malloc(0), *c = malloc(0);
   free(a);
   free(b);
   free(c);
   realloc_through_sizes();
   allocate_all();
   check_all();
   STRATA_SNAPSHOT();
   char line[64];
   int n = std::snprintf(line, sizeof line, "%zu %zu\n", heap_bytes, n_blocks);
   if (write(1, line, n) != n) return 1;
   // The odd ones first, so that free lists are not in allocation order.
   for (std::size_t i = 1; i < n_blocks; i += 2) deallocate(blocks[i]);
   for (std::size_t i = 0; i < n_blocks; i += 2) deallocate(blocks[i]);
   STRATA_SNAPSHOT();
   return 0;
}
