/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* mount(8)'s exit codes (libmount MNT_EX_*), which a helper must use. */
#define EX_OK 0
#define EX_USAGE 1
#define EX_SYSERR 2
#define EX_USER 8
#define EX_FAIL 32
