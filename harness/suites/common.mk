# harness/suites/common.mk: how every suite is built; each suite's Makefile
# sets SUITE (its binary, sg-<name>) and SRCS (its C files), then includes
# this, which builds every C file of lib/ in as well. The suites are static
# (they run as the guest's programs) and build warning-free; CFLAGS/LDFLAGS
# from the environment or the command line (e.g. CFLAGS=-g) are added to
# these, never replace them.
SUITES_DIR := $(dir $(lastword $(MAKEFILE_LIST)))
LIB := $(SUITES_DIR)lib
ifeq ($(origin CC),default)
CC := gcc
endif
LIB_SRCS := $(wildcard $(LIB)/*.c)
SG_CFLAGS := -O2 -std=gnu11 -Wall -Wextra -Werror -I$(LIB)
SG_LDFLAGS := -static

$(SUITE): $(SRCS) $(wildcard *.h) $(LIB_SRCS) $(wildcard $(LIB)/*.h) $(SUITES_DIR)common.mk
	$(CC) $(SG_CFLAGS) $(CFLAGS) -o $@ $(SRCS) $(LIB_SRCS) $(SG_LDFLAGS) $(LDFLAGS)

clean:
	rm -f $(SUITE)

.PHONY: clean
