/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <dlfcn.h>

/*
 * A library loaded with dlopen() when it is first needed, not at every start of the helper: a
 * boot starts a hundred helpers at once, and each library linked in is mapped and its symbols
 * resolved in every one of them (DESIGN.md "Parallel mounts").  A library's functions are an
 * X-macro list; its struct holds the handle and one typed pointer per function:
 *
 *     #define FOO_FUNCTIONS(X) X(foo_new) X(foo_free)
 *     struct foo { void *handle; FOO_FUNCTIONS(DL_FIELD) };
 *     DL_OPEN(&l, "libfoo.so.1", FOO_FUNCTIONS)   (in a function returning int)
 *
 * DL_OPEN returns -ELIBACC from that function when the library or one of its functions is not
 * there (the package's dependency should have made it so); the caller says what that costs.
 */
#define DL_FIELD(f) typeof(&f) f;
#define DL_SYM_(f)                                          \
        if (!(l_->f = (typeof(&f))dlsym(l_->handle, #f))) { \
                dlclose(l_->handle);                        \
                l_->handle = NULL;                          \
                return -ELIBACC;                            \
        }
#define DL_OPEN(lib, soname, FUNCTIONS)                                      \
        do {                                                                 \
                typeof(lib) l_ = (lib);                                      \
                if (!(l_->handle = dlopen((soname), RTLD_NOW | RTLD_LOCAL))) \
                        return -ELIBACC;                                     \
                FUNCTIONS(DL_SYM_)                                           \
        } while (0)
