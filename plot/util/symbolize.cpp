// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/symbolize.hpp"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "util/text.hpp"

namespace strata {

namespace {

// Where separate debugging files are found by the object's build ID, as
// Debian's -dbgsym packages install them.
constexpr const char* kDebugDirectory = "/usr/lib/debug/.build-id/";
// Longer linkage names are left as they are rather than demangled.
constexpr std::size_t kMaxDemangled = 4096;

// An ELF file open for reading, or nothing.  Only regular files are opened
// (never a FIFO or a device, which a profile could name), without blocking.
class ElfFile {
 public:
  ElfFile() = default;
  explicit ElfFile(const std::string& path) {
    fd_ = open_regular(path);
    if (fd_ < 0) return;
    elf_ = elf_begin(fd_, ELF_C_READ_MMAP, nullptr);
    if (elf_ != nullptr && elf_kind(elf_) != ELF_K_ELF) {
      elf_end(elf_);
      elf_ = nullptr;
    }
  }
  ElfFile(ElfFile&& other) noexcept { *this = std::move(other); }
  ElfFile& operator=(ElfFile&& other) noexcept {
    std::swap(fd_, other.fd_);
    std::swap(elf_, other.elf_);
    return *this;
  }
  ~ElfFile() {
    if (elf_ != nullptr) elf_end(elf_);
    if (fd_ >= 0) ::close(fd_);
  }

  Elf* elf() const { return elf_; }

 private:
  int fd_ = -1;
  Elf* elf_ = nullptr;
};

std::string build_id(Elf* elf) {
  const void* bytes = nullptr;
  ssize_t length = dwelf_elf_gnu_build_id(elf, &bytes);
  if (length <= 0) return "";
  return std::string(static_cast<const char*>(bytes), static_cast<std::size_t>(length));
}

// /usr/lib/debug/.build-id/ab/cdef....debug for build ID ab cd ef ...
std::string debug_file_path(const std::string& id) {
  std::string path = kDebugDirectory;
  for (std::size_t i = 0; i < id.size(); ++i) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(id[i]));
    path += hex;
    if (i == 0) path += '/';
  }
  return path + ".debug";
}

// A function of an object's symbol table: the code at [start, end).
struct FunctionSymbol {
  Dwarf_Addr start = 0;
  Dwarf_Addr end = 0;
  std::string name;  // as the table has it (mangled)
  int rank = 0;      // among aliases, the lowest is the name shown
};

// Among aliases of one address, the name Valgrind shows: fewer leading
// underscores first (malloc, not __libc_malloc), then a global symbol
// before a weak one, then a local one.
int alias_rank(const char* name, unsigned char binding) {
  int underscores = 0;
  while (name[underscores] == '_') ++underscores;
  int bound = binding == STB_GLOBAL ? 0 : binding == STB_WEAK ? 1 : 2;
  return underscores * 4 + bound;
}

// The functions of `elf`'s symbol table (.symtab, else .dynsym), sorted by
// address: what Valgrind names code by.
std::vector<FunctionSymbol> function_symbols(Elf* elf) {
  std::vector<FunctionSymbol> out;
  if (elf == nullptr) return out;
  Elf_Scn* table = nullptr;
  GElf_Shdr header;
  for (Elf64_Word wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (Elf_Scn* scn = nullptr; table == nullptr && (scn = elf_nextscn(elf, scn)) != nullptr;) {
      if (gelf_getshdr(scn, &header) != nullptr && header.sh_type == wanted) table = scn;
    }
  }
  Elf_Data* data = table != nullptr ? elf_getdata(table, nullptr) : nullptr;
  if (data == nullptr || header.sh_entsize == 0) return out;
  std::size_t count = header.sh_size / header.sh_entsize;
  for (std::size_t i = 0; i < count; ++i) {
    GElf_Sym symbol;
    if (gelf_getsym(data, static_cast<int>(i), &symbol) == nullptr) break;
    int type = GELF_ST_TYPE(symbol.st_info);
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || symbol.st_shndx == SHN_UNDEF ||
        symbol.st_size == 0) {
      continue;
    }
    const char* name = elf_strptr(elf, header.sh_link, symbol.st_name);
    if (name == nullptr || *name == '\0') continue;
    out.push_back({symbol.st_value, symbol.st_value + symbol.st_size, name,
                   alias_rank(name, GELF_ST_BIND(symbol.st_info))});
  }
  std::sort(out.begin(), out.end(), [](const FunctionSymbol& a, const FunctionSymbol& b) {
    return a.start != b.start ? a.start < b.start : a.rank < b.rank;
  });
  return out;
}

// A CU's address range, for objects without .debug_aranges.
struct CuRange {
  Dwarf_Addr start = 0;
  Dwarf_Addr end = 0;
  Dwarf_Off die = 0;  // the CU's DIE
};

std::string attribute_text(Dwarf_Die* die, unsigned int name) {
  Dwarf_Attribute attribute;
  const char* text = dwarf_formstring(dwarf_attr_integrate(die, name, &attribute));
  return text != nullptr ? text : "";
}

std::string demangled(const std::string& name) {
  if (name.size() > kMaxDemangled) return "";
  int status = 0;
  char* text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (text == nullptr) return "";
  std::string out = status == 0 ? text : "";
  std::free(text);
  return out;
}

// An inlined function by its name, as Valgrind names inlined frames; the
// function that holds the code by its demangled linkage name, else its name
// (both through DW_AT_abstract_origin and DW_AT_specification).
std::string function_name(Dwarf_Die* die, bool holder) {
  if (holder) {
    std::string linkage = attribute_text(die, DW_AT_linkage_name);
    if (linkage.empty()) linkage = attribute_text(die, DW_AT_MIPS_linkage_name);
    std::string name = linkage.empty() ? "" : demangled(linkage);
    if (!name.empty()) return name;
  }
  return attribute_text(die, DW_AT_name);
}

// The file and line of the line table's row for `address`.
SourceFrame line_at(Dwarf_Die* cu, Dwarf_Addr address) {
  SourceFrame at;
  Dwarf_Line* line = dwarf_getsrc_die(cu, address);
  if (line == nullptr) return at;
  const char* file = dwarf_linesrc(line, nullptr, nullptr);
  int number = 0;
  if (file == nullptr || dwarf_lineno(line, &number) != 0) return at;
  at.file = file;
  at.line = number > 0 ? static_cast<std::uint32_t>(number) : 0;
  return at;
}

// Where the inlined subroutine `die` was inlined: its DW_AT_call_file and
// DW_AT_call_line, in the file table of its own unit.
SourceFrame call_site(Dwarf_Die* die) {
  SourceFrame at;
  Dwarf_Attribute attribute;
  Dwarf_Word file = 0;
  Dwarf_Word line = 0;
  Dwarf_Die unit;
  Dwarf_Files* files = nullptr;
  std::size_t count = 0;
  if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attribute), &file) != 0 ||
      dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attribute), &line) != 0 ||
      dwarf_diecu(die, &unit, nullptr, nullptr) == nullptr ||
      dwarf_getsrcfiles(&unit, &files, &count) != 0 || file >= count) {
    return at;
  }
  const char* name = dwarf_filesrc(files, file, nullptr, nullptr);
  if (name == nullptr) return at;
  at.file = name;
  at.line = line <= UINT32_MAX ? static_cast<std::uint32_t>(line) : 0;
  return at;
}

// Whether the subtree of `die` can hold code at an address: scopes with
// addresses (functions, inlined calls, blocks) hold it only within their
// ranges; namespaces and classes, which have none, may hold functions that do.
enum class Holds { yes, no, maybe };

Holds holds(Dwarf_Die* die, Dwarf_Addr address) {
  switch (dwarf_tag(die)) {
    case DW_TAG_subprogram:
    case DW_TAG_inlined_subroutine:
    case DW_TAG_lexical_block:
    case DW_TAG_try_block:
    case DW_TAG_catch_block:
      return dwarf_haspc(die, address) > 0 ? Holds::yes : Holds::no;
    case DW_TAG_namespace:
    case DW_TAG_class_type:
    case DW_TAG_structure_type:
    case DW_TAG_union_type:
    case DW_TAG_module:
      return Holds::maybe;
    default:
      return Holds::no;
  }
}

// The functions and inlined calls of the CU whose ranges hold `address`,
// outermost first, found by walking down the CU's tree (libdw's
// dwarf_getscopes gives nothing when the inlined function's abstract origin
// is in another unit, as after LTO).  An explicit stack, at most
// kMaxScopeDepth deep, and at most kMaxSteps DIEs looked at (an object is
// data too).
std::vector<Dwarf_Die> scopes_at(Dwarf_Die cu, Dwarf_Addr address) {
  constexpr std::size_t kMaxScopeDepth = 256;
  constexpr std::size_t kMaxSteps = std::size_t{1} << 22;
  std::vector<Dwarf_Die> found;
  std::vector<Dwarf_Die> pending;  // siblings still to look at, a level each
  Dwarf_Die child;
  if (dwarf_child(&cu, &child) == 0) pending.push_back(child);
  for (std::size_t step = 0; !pending.empty() && pending.size() <= kMaxScopeDepth; ++step) {
    if (step == kMaxSteps) return {};
    Dwarf_Die die = pending.back();
    Holds h = holds(&die, address);
    if (h == Holds::yes) {
      int tag = dwarf_tag(&die);
      if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) found.push_back(die);
      // Only its children can hold what is deeper: nothing else is looked at.
      pending.clear();
      if (dwarf_child(&die, &child) == 0) pending.push_back(child);
      continue;
    }
    if (h == Holds::maybe && dwarf_child(&die, &child) == 0) {
      // Look inside, then at the siblings after it.
      Dwarf_Die sibling;
      if (dwarf_siblingof(&die, &sibling) == 0) {
        pending.back() = sibling;
      } else {
        pending.pop_back();
      }
      pending.push_back(child);
      continue;
    }
    if (dwarf_siblingof(&die, &pending.back()) != 0) pending.pop_back();
  }
  return found;
}

}  // namespace

// What was read of an object: its ELF, its DWARF (from it, or from its
// separate debugging file), and, once needed, its CUs' ranges.
struct Symbolizer::Object {
  ElfFile file;
  ElfFile debug_file;  // the separate debugging file, when the DWARF is there
  Dwarf* dwarf = nullptr;
  bool fixed = false;           // ET_EXEC
  std::vector<CuRange> ranges;  // sorted by start; built when .debug_aranges fails
  bool ranges_read = false;
  std::vector<FunctionSymbol> symbols;  // sorted by start, then alias_rank

  // The name Valgrind gives the code at `address` (its symbol, demangled),
  // or empty.
  std::string symbol_at(Dwarf_Addr address) const;

  explicit Object(const std::string& path);
  ~Object() {
    if (dwarf != nullptr) dwarf_end(dwarf);
  }
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  bool cu_at(Dwarf_Addr address, Dwarf_Die* cu);
  void read_ranges();
};

Symbolizer::Object::Object(const std::string& path) : file(path) {
  if (file.elf() == nullptr) return;
  GElf_Ehdr header;
  fixed = gelf_getehdr(file.elf(), &header) != nullptr && header.e_type == ET_EXEC;
  dwarf = dwarf_begin_elf(file.elf(), DWARF_C_READ, nullptr);
  // Stripped: the DWARF of the same build, by its build ID, and its full
  // symbol table.
  std::string id = dwarf != nullptr ? "" : build_id(file.elf());
  if (!id.empty()) {
    debug_file = ElfFile(debug_file_path(id));
    if (debug_file.elf() != nullptr && build_id(debug_file.elf()) == id) {
      dwarf = dwarf_begin_elf(debug_file.elf(), DWARF_C_READ, nullptr);
      symbols = function_symbols(debug_file.elf());
    }
  }
  if (symbols.empty()) symbols = function_symbols(file.elf());
  if (dwarf == nullptr) {  // nothing more to read: no descriptor kept
    file = ElfFile();
    debug_file = ElfFile();
  }
}

std::string Symbolizer::Object::symbol_at(Dwarf_Addr address) const {
  auto after = std::upper_bound(symbols.begin(), symbols.end(), address,
                                [](Dwarf_Addr a, const FunctionSymbol& f) { return a < f.start; });
  // The last symbol starting at or before `address` that holds it, the
  // first of its aliases; nested symbols are rare: 64 looked at at most.
  for (int looked = 0; after != symbols.begin() && looked < 64; ++looked) {
    --after;
    if (address < after->end) {
      Dwarf_Addr start = after->start;
      while (after != symbols.begin() && std::prev(after)->start == start) --after;
      std::string name = demangled(after->name);
      return name.empty() ? after->name : name;
    }
  }
  return "";
}

void Symbolizer::Object::read_ranges() {
  ranges_read = true;
  Dwarf_Off offset = 0;
  Dwarf_Off next = 0;
  std::size_t header = 0;
  while (dwarf_nextcu(dwarf, offset, &next, &header, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cu;
    if (dwarf_offdie(dwarf, offset + header, &cu) != nullptr) {
      Dwarf_Addr base = 0;
      Dwarf_Addr start = 0;
      Dwarf_Addr end = 0;
      for (ptrdiff_t at = 0; (at = dwarf_ranges(&cu, at, &base, &start, &end)) > 0;) {
        if (start < end) ranges.push_back({start, end, offset + header});
      }
    }
    offset = next;
  }
  std::sort(ranges.begin(), ranges.end(),
            [](const CuRange& a, const CuRange& b) { return a.start < b.start; });
}

bool Symbolizer::Object::cu_at(Dwarf_Addr address, Dwarf_Die* cu) {
  if (dwarf_addrdie(dwarf, address, cu) != nullptr) return true;
  if (!ranges_read) read_ranges();
  auto after = std::upper_bound(ranges.begin(), ranges.end(), address,
                                [](Dwarf_Addr a, const CuRange& r) { return a < r.start; });
  if (after == ranges.begin() || address >= std::prev(after)->end) return false;
  return dwarf_offdie(dwarf, std::prev(after)->die, cu) != nullptr;
}

Symbolizer::Symbolizer() {
  elf_version(EV_CURRENT);
  none_ = std::make_unique<Object>(std::string());
}

Symbolizer::~Symbolizer() = default;

Symbolizer::Object& Symbolizer::open(const std::string& object) {
  auto at = objects_.find(object);
  if (at != objects_.end()) return *at->second;
  if (objects_.size() == kMaxObjects) return *none_;
  return *objects_.emplace(object, std::make_unique<Object>(object)).first->second;
}

bool Symbolizer::fixed_addresses(const std::string& object) { return open(object).fixed; }

void Symbolizer::prepare(const std::string& object) {
  Object& o = open(object);
  Dwarf_Aranges* aranges = nullptr;
  std::size_t count = 0;
  if (o.dwarf != nullptr) dwarf_getaranges(o.dwarf, &aranges, &count);
}

std::vector<SourceFrame> Symbolizer::frames(const std::string& object, std::uint64_t offset) {
  Object& o = open(object);
  std::string symbol = o.symbol_at(offset);
  Dwarf_Die cu;
  if (o.dwarf == nullptr || !o.cu_at(offset, &cu)) {
    if (symbol.empty()) return {};
    SourceFrame only;
    only.function = symbol;
    return {only};
  }
  std::vector<Dwarf_Die> scopes = scopes_at(cu, offset);
  std::vector<SourceFrame> out;
  SourceFrame at = line_at(&cu, offset);
  for (auto scope = scopes.rbegin(); scope != scopes.rend(); ++scope) {
    int tag = dwarf_tag(&*scope);
    bool holder = tag == DW_TAG_subprogram;
    at.function = holder && !symbol.empty() ? symbol : function_name(&*scope, holder);
    out.push_back(at);
    if (tag == DW_TAG_subprogram) break;
    at = call_site(&*scope);
  }
  if (out.empty() && (!at.file.empty() || !symbol.empty())) {  // a line, in no function's DIE
    at.function = symbol;
    out.push_back(at);
  }
  return out;
}

}  // namespace strata
