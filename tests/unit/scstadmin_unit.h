/* SPDX-License-Identifier: GPL-2.0-only */
/* Common includes for the scstadmin unit tests (usr/scstadmin). */
#ifndef SCSTADMIN_UNIT_H
#define SCSTADMIN_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "scstadmin.h"

#endif
