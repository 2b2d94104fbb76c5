/* core_replay TRACE PROFILE: the recorder's core (massif/st_core.h),
   compiled against the C library (ST_PORT_LIBC, massif/st_port_libc.c),
   replays an allocation trace into a profile; tests/t-core-replay.sh reads
   it with strata report.  The time unit is bytes (B), so the profile is the
   same on every machine.

   A trace is one operation a line, the frames of a stack innermost first:

     a BLOCK SIZE FRAME...   block BLOCK (a number) of SIZE bytes is
                             allocated at the stack FRAME...
     f BLOCK FRAME...        block BLOCK is freed by the stack FRAME...
     m LABEL                 a marker
     # ...                   a comment

   A frame is a function's name; its code address is made up (one per name)
   and written with the name, as the tool writes what Valgrind's debug
   information says of an address. */

#include "st_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES  32
#define MAX_NAMES   256
#define MAX_BLOCKS  4096
#define BASE_ADDR   0x401000

/* The frames' names, by the index that makes their address. */
static char* names[MAX_NAMES];
static UInt  n_names;
static UInt  frame_id_of[MAX_NAMES];   // 0: its F record not yet written
static UInt  next_frame_id = 1;

typedef struct {
   Site* site;
   UInt  tag;
   SizeT szB;
   Bool  live;
} ReplayBlock;
static ReplayBlock blocks[MAX_BLOCKS];

/* The stack of the free under way, for unwind_FreeStack. */
static Addr free_ips[MAX_FRAMES];
static UInt n_free_ips;

static void fail(const char* what, const char* arg)
{
   fprintf(stderr, "core_replay: %s%s\n", what, arg);
   exit(1);
}

static Addr addr_of_name(const char* name)
{
   UInt i;
   for (i = 0; i < n_names; i++)
      if (strcmp(names[i], name) == 0)
         return BASE_ADDR + 16 * i;
   if (n_names == MAX_NAMES)
      fail("too many frames", "");
   names[n_names] = strdup(name);
   return BASE_ADDR + 16 * n_names++;
}

/* The recorder's part (st_core.h): an F record for each frame not yet
   written, then the stack's record. */
void put_stack_record(const HChar* rec, UInt id, const Addr* ips, UInt n_ips)
{
   UInt i;
   for (i = 0; i < n_ips; i++) {
      UInt k = (UInt)((ips[i] - BASE_ADDR) / 16);
      if (frame_id_of[k] != 0)
         continue;
      frame_id_of[k] = next_frame_id++;
      put_str("F");
      put_field_u64(frame_id_of[k]);
      put_tab();
      put_hex(ips[i]);
      put_field_u64(0);
      put_field_text(names[k]);
      put_field_text("replay.c");
      put_field_u64(k + 1);
      put_field_text("/replay");
      put_tab();
      put_hex(ips[i] - BASE_ADDR);
      put_nl();
   }
   put_str(rec);
   put_field_u64(id);
   for (i = 0; i < n_ips; i++)
      put_field_u64(frame_id_of[(ips[i] - BASE_ADDR) / 16]);
   put_nl();
}

FreeStack* unwind_FreeStack(ThreadId tid)
{
   (void)tid;
   stats_free_unwinds++;
   return get_FreeStack(free_ips, n_free_ips);
}

static ULong now(void)
{
   return get_time();
}

static void write_replay_header(const char* trace)
{
   put_str("strata-profile\t3\n");
   put_str("cmd");
   put_field_text("core_replay ");
   put_text(trace);
   put_nl();
   put_str("pid\t1\nppid\t0\ntime_unit\tB\n");
   put_str("opt\tdepth\t30\nopt\theap_admin\t0\nopt\tpeak_inaccuracy\t0.000\n");
   put_str("opt\theap\tyes\nopt\tstacks\tno\nopt\tpages_as_heap\tno\n");
   put_str("opt\tlifetimes\tyes\nopt\tfree_stacks\tyes\nopt\tfree_depth\t12\n");
}

/* The frames from strtok's position on, as addresses. */
static UInt read_stack(Addr* ips)
{
   UInt  n = 0;
   char* name;
   while ((name = strtok(NULL, " \t\n")) != NULL) {
      if (n == MAX_FRAMES)
         fail("too many frames in a stack", "");
      ips[n++] = addr_of_name(name);
   }
   return n;
}

static ReplayBlock* block_of(const char* word, Bool live)
{
   long b = word ? strtol(word, NULL, 10) : -1;
   if (b < 0 || b >= MAX_BLOCKS || blocks[b].live != live)
      fail(live ? "no live block " : "block already live ", word ? word : "");
   return &blocks[b];
}

/* As the tool's malloc does: the clock, the birth, the call. */
static void replay_alloc(void)
{
   ReplayBlock* b = block_of(strtok(NULL, " \t"), False);
   const char*  size = strtok(NULL, " \t");
   Addr         ips[MAX_FRAMES];
   UInt         n;
   if (size == NULL)
      fail("an allocation without its size", "");
   b->szB = strtoul(size, NULL, 10);
   n = read_stack(ips);
   clock_before_op();
   b->site = get_Site_of_stack(ips, n);
   b->tag  = record_birth(b->site, b->szB, 0);
   count_call(b->site, b->szB, b);
   b->live = True;
   clock_after_op();
}

/* As the tool's free does. */
static void replay_free(void)
{
   ReplayBlock* b = block_of(strtok(NULL, " \t\n"), True);
   n_free_ips = read_stack(free_ips);
   clock_before_op();
   record_death(1, b->site, b, b->tag, b->szB, 0);
   count_free_call();
   b->live = False;
   clock_after_op();
}

int main(int argc, char** argv)
{
   FILE* trace;
   char  line[4096];
   if (argc != 3)
      fail("usage: core_replay TRACE PROFILE", "");
   trace = fopen(argv[1], "r");
   if (trace == NULL)
      fail("cannot read ", argv[1]);
   clo_time_unit = TimeB;
   init_heap();
   init_lifetimes();
   init_snapshot_clock();
   if (open_Writer(argv[2], now) != 0)
      fail("cannot create ", argv[2]);
   write_replay_header(argv[1]);
   flush_Writer();
   while (fgets(line, sizeof(line), trace) != NULL) {
      char* op = strtok(line, " \t\n");
      if (op == NULL || op[0] == '#')
         continue;
      if (strcmp(op, "a") == 0)
         replay_alloc();
      else if (strcmp(op, "f") == 0)
         replay_free();
      else if (strcmp(op, "m") == 0)
         write_marker(strtok(NULL, "\n"));
      else
         fail("unknown operation ", op);
      check_heap_cheaply();
      check_all_Sites();
   }
   fclose(trace);
   write_profile_end(False);
   close_Writer();
   return 0;
}
