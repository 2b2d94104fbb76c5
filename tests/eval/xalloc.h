/* xalloc.h: the request server's allocator wrapper.  Every allocation of the
 * server goes through xalloc(size, tag), which counts bytes per tag and
 * aborts when memory runs out; xfree gives the block back. */
#ifndef EVAL_XALLOC_H
#define EVAL_XALLOC_H

#include <stddef.h>

enum xtag { X_REQUEST, X_RESPONSE, X_ERROR, X_SESSION, X_NTAGS };

void *xalloc(size_t size, enum xtag tag);
void xfree(void *p);
void xalloc_stats(long out[X_NTAGS]);

#endif
