/*--------------------------------------------------------------------*/
/*--- strata: the process: its profile's name, fork, exec, the     ---*/
/*--- ledger and the client's environment.          st_process.c ---*/
/*--------------------------------------------------------------------*/

/* SPDX-License-Identifier: GPL-2.0-or-later */

#include "st_include.h"

/*------------------------------------------------------------*/
/*--- The profile's name                                   ---*/
/*------------------------------------------------------------*/

/* The file name: --out-file expanded (the base name), and after an exec
   (Exec) .execN.  The ledger is told which file was created, or which could
   not be and why.  The process strata record started stops when it cannot
   create its profile, before the program starts; any other process (a
   forked child, a program started by exec) runs on without a profile. */

static HChar* base_name = NULL;   // --out-file expanded, this process's
static Bool   forked    = False;  // this process is a forked child

void open_Output(void)
{
   HChar  pid[16];
   HChar* full;
   UWord  err;
   if (base_name != NULL)
      VG_(free)(base_name);
   base_name = VG_(expand_file_name)("--out-file", clo_out_file);
   full = VG_(malloc)("st.out.name", VG_(strlen)(base_name) + 32);
   VG_(sprintf)(full, clo_after_exec > 0 ? "%s.exec%u" : "%s", base_name,
                clo_after_exec);
   VG_(sprintf)(pid, "%d", VG_(getpid)());
   err = open_Writer(full, get_time);
   if (err != 0) {
      note_Ledger("F", pid, full, VG_(strerror)(err));
      if (!forked && clo_after_exec == 0) {
         VG_(fmsg)("strata: cannot create the profile file '%s': %s\n",
                   full, VG_(strerror)(err));
         VG_(exit)(1);
      }
      VG_(umsg)("strata: cannot create the profile file '%s': %s; process "
                "%s runs on without a profile\n", full, VG_(strerror)(err),
                pid);
   } else {
      note_Ledger("P", pid, full, NULL);
      write_header();
      flush_Writer();
   }
   VG_(free)(full);
}

/*------------------------------------------------------------*/
/*--- The client's environment                             ---*/
/*------------------------------------------------------------*/

/* Valgrind finds strata's tool through VALGRIND_LIB, and gives the client
   the environment it was given: a program that runs valgrind itself would
   find strata's directory instead of its own Valgrind's.  So the entry is
   taken out of the client's environment before the client starts.  It is
   on the client's initial stack, where the auxiliary vector comes right
   after the environment's NULL (the dynamic loader finds it there): the
   entries after it, the NULL and the vector move down one slot, the stack
   pointer (at argc) stays where it is, and VG_(client_auxv) follows the
   vector.  A traced exec gets VALGRIND_LIB again from the core, for the
   new Valgrind, and the new strata takes it out again. */
static Bool hide_one(HChar** env, const HChar* name_eq)
{
   SizeT   len = VG_(strlen)(name_eq);
   HChar** slot;
   HChar** null;
   UWord*  end;
   for (slot = env; *slot && VG_(strncmp)(*slot, name_eq, len) != 0; slot++)
      ;
   for (null = slot; *null; null++)
      ;
   if (*slot == NULL || (UWord*)(null + 1) != VG_(client_auxv))
      return False;   // not there, or not the layout of Valgrind 3.19
   for (end = VG_(client_auxv); end[0] != 0 /* AT_NULL */; end += 2)
      ;
   end += 2;
   VG_(memmove)(slot, slot + 1, (Addr)end - (Addr)(slot + 1));
   end[-1] = 0;
   VG_(client_auxv)--;
   return True;
}

void hide_valgrind_lib(void)
{
   if (VG_(client_envp) == NULL || VG_(client_auxv) == NULL)
      return;
   while (hide_one(VG_(client_envp), "VALGRIND_LIB="))
      ;
}

/*------------------------------------------------------------*/
/*--- Fork                                                 ---*/
/*------------------------------------------------------------*/

/* A forked child writes a profile of its own: a new file, frames and sites
   written anew, and a first snapshot of the heap it inherited.  Its
   allocation counts are its own: they start from 0 at the fork.  When
   --out-file names the same file for the child as for its parent (no %p in
   it), the child's name is its parent's followed by its own pid, as if the
   pattern ended in .%p; so is the name of anything it execs, and its
   children's are theirs: the pattern with .%p is passed on to the program
   a traced exec starts, as --out-file is. */
static Word  out_file_arg = -1;      // its index in VG_(args_for_valgrind)
static HChar* out_file_text = NULL;  // the option passed on

static void name_child_Output(void)
{
   HChar* name = VG_(expand_file_name)("--out-file", clo_out_file);
   Bool   same = base_name != NULL && VG_STREQ(name, base_name);
   HChar* pattern;
   VG_(free)(name);
   if (!same)
      return;
   pattern = VG_(malloc)("st.out.child", VG_(strlen)(clo_out_file) + 4);
   VG_(sprintf)(pattern, "%s.%%p", clo_out_file);
   clo_out_file = pattern;     // never freed: the options keep pointers to it
   out_file_text = VG_(malloc)("st.out.arg", VG_(strlen)(pattern) + 16);
   VG_(sprintf)(out_file_text, "--out-file=%s", pattern);
   if (out_file_arg < 0)
      out_file_arg = VG_(addToXA)(VG_(args_for_valgrind), &out_file_text);
   else
      *(HChar**)VG_(indexXA)(VG_(args_for_valgrind), out_file_arg)
         = out_file_text;
}

/* A fork's K record, in the parent: not for a vfork, nor a clone with
   CLONE_VFORK (system, popen and posix_spawn make one), which Valgrind
   runs as a fork but whose child runs only until it execs, as the native
   recorder's pthread_atfork handlers see no such clone. */
static Bool spawning = False;   // the clone under way is a vfork's

void st_atfork_parent(ThreadId tid)
{
   if (!spawning)
      write_fork();
   spawning = False;
}

void st_atfork_child(ThreadId tid)
{
   if (!is_open_Writer())
      return;
   drop_Writer();                // the parent writes what it had buffered
   VG_(HT_destruct)(frame_runs, VG_(free));
   frame_runs    = VG_(HT_construct)("st.frame_runs");
   next_frame_id = 1;
   restart_heap_in_child();
   clo_after_exec = 0;        // a new process, named by its own pid
   forked = True;
   name_child_Output();
   open_Output();
   if (is_open_Writer())
      take_snapshot(SnapRegular);
}

/*------------------------------------------------------------*/
/*--- Exec                                                 ---*/
/*------------------------------------------------------------*/

/* execve replaces the process and the tool with it, without finalisation:
   end the profile first.  An execve may fail, and programs try several
   (execvp walks the PATH; g++ does so for each of its passes): then the end
   is taken back, the file cut to where it began, and the profile goes on as
   if the execve had not been tried.  The end changed nothing but the file.

   With --trace-children=yes the new program is profiled anew by a new
   strata, with the options in VG_(args_for_valgrind).  Its --out-file name
   is this one's (the same pid for %p; %n counts afresh), so it would write
   over this profile: each execve adds --after-exec=N to those options, N
   counting the execs of the process, and the new strata writes to its
   name with .execN after it.  A failed execve puts the count back. */

static Word  after_exec_arg = -1;     // its index in VG_(args_for_valgrind)
static HChar after_exec_text[32];     // the option passed on

static void pass_exec_count(UInt n)
{
   VG_(sprintf)(after_exec_text, "--after-exec=%u", n);
   if (after_exec_arg < 0) {
      const HChar* text = after_exec_text;
      after_exec_arg = VG_(addToXA)(VG_(args_for_valgrind), &text);
   }
}

/* The ledger goes on across an exec that the core traces: its descriptor
   stays open for the new strata (--record-fd, passed on like
   --after-exec).  An exec the core does not trace is noted (E): the
   program it starts is not profiled, and strata record says so; an E is
   taken back (e) if the execve returns. */
static Word  record_fd_arg = -1;      // its index in VG_(args_for_valgrind)
static HChar record_fd_text[32];      // the option passed on
static Bool  exec_traced = False;     // of the execve under way

static Bool will_trace(UInt syscallno, UWord* args, const HChar** path)
{
   Addr name = syscallno == __NR_execve ? args[0] : args[1];
   *path = name != 0 && VG_(am_is_valid_for_client)(name, 1, VKI_PROT_READ)
              ? (const HChar*)name : "";
   return VG_(clo_trace_children)
          && VG_(should_we_trace_this_child)(**path ? *path : NULL, NULL);
}

static void pass_Ledger(UInt syscallno, UWord* args)
{
   const HChar* path;
   HChar pid[16];
   Int   fd = fd_Ledger();
   if (fd < 0)
      return;
   exec_traced = will_trace(syscallno, args, &path);
   if (!exec_traced) {
      VG_(sprintf)(pid, "%d", VG_(getpid)());
      note_Ledger("E", pid, path, NULL);
      return;
   }
   VG_(fcntl)(fd, VKI_F_SETFD, 0);
   VG_(sprintf)(record_fd_text, "--record-fd=%d", fd);
   if (record_fd_arg < 0) {
      const HChar* text = record_fd_text;
      record_fd_arg = VG_(addToXA)(VG_(args_for_valgrind), &text);
   }
}

static void take_back_Ledger(void)
{
   HChar pid[16];
   Int   fd = fd_Ledger();
   if (fd < 0)
      return;
   if (exec_traced) {
      VG_(fcntl)(fd, VKI_F_SETFD, VKI_FD_CLOEXEC);
   } else {
      VG_(sprintf)(pid, "%d", VG_(getpid)());
      note_Ledger("e", pid, NULL, NULL);
   }
}

void st_pre_syscall(ThreadId tid, UInt syscallno, UWord* args,
                    UInt nArgs)
{
#if defined(__NR_vfork)
   if (syscallno == __NR_vfork)
      spawning = True;
#endif
   if (syscallno == __NR_clone && nArgs > 0 && (args[0] & VKI_CLONE_VFORK))
      spawning = True;
   if (syscallno == __NR_execve || syscallno == __NR_execveat) {
      end_profile(True);
      pass_exec_count(clo_after_exec + 1);
      pass_Ledger(syscallno, args);
   }
}

void st_post_syscall(ThreadId tid, UInt syscallno, UWord* args,
                     UInt nArgs, SysRes res)
{
   if (syscallno == __NR_setrlimit || syscallno == __NR_prlimit64)
      check_limit_Writer();   // RLIMIT_FSIZE must not stop the profile
   if (syscallno == __NR_clone)
      spawning = False;       // a clone that failed, or made a thread
   if (syscallno != __NR_execve && syscallno != __NR_execveat)
      return;
   pass_exec_count(clo_after_exec);
   take_back_Ledger();
   if (provisional_end < 0 || !is_open_Writer())
      return;
   cut_Writer((ULong)provisional_end);
   provisional_end = -1;
   stats_snapshots[SnapFinal]--;
}

/*------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- end                                              st_process.c ---*/
/*--------------------------------------------------------------------*/
