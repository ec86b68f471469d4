# pairbench: one non-recursive Makefile. Objects under build/, binaries in bin/.
#   make            build bin/driver and bin/compare (CC/LD lines; V=1 prints the commands)
#   make tests      also the unit test binaries (build/tests/)
#   make test       unit + integration tests (real servers on loopback)
#   make unit       unit tests only
#   make mutate     mutation testing: every mutant of tests/mutants.txt killed by its tests
#   make check      clang-format check, code shape, include rooms and use, test lint, no
#                   citation of a dated results file, cppcheck, clang-tidy
#   make demo       install what is missing, build, run a short real comparison
#   make deps       run ci/install-deps.sh
#   make install    bin/compare, bin/driver, their man pages and lib/pairbench/ into $(DESTDIR)$(PREFIX)
#   make fuzz       libFuzzer targets (clang), FUZZ_SECONDS each
#   make SANITIZE=address,undefined ...   sanitizer build (separate build dir)

CC ?= cc
DEPS := $(CURDIR)/.deps
# The caller's PKG_CONFIG_PATH less .deps: a make started from this one (make install in a
# test, the fuzz build) inherits the exported path below and must not take .deps's copy for a
# system hiredis (it would link the shared library, which is on no runtime path).
empty :=
space := $(empty) $(empty)
ENV_PKG_CONFIG_PATH := $(subst $(space),:,$(filter-out $(DEPS)/lib/pkgconfig,$(subst :, ,$(PKG_CONFIG_PATH))))
export PKG_CONFIG_PATH := $(DEPS)/lib/pkgconfig:$(PKG_CONFIG_PATH)

PKGS := openssl libcurl jansson libnghttp2
# hiredis >= 1.0 (RESP3): the system's when pkg-config finds one (the caller's own
# PKG_CONFIG_PATH, not .deps), else a static copy built into .deps by ci/build-hiredis.sh.
SYSTEM_HIREDIS := $(shell PKG_CONFIG_PATH='$(ENV_PKG_CONFIG_PATH)' \
    pkg-config --atleast-version=1.0.0 hiredis 2>/dev/null && echo yes)
ifeq ($(SYSTEM_HIREDIS),yes)
HIREDIS_CFLAGS := $(shell PKG_CONFIG_PATH='$(ENV_PKG_CONFIG_PATH)' pkg-config --cflags hiredis)
HIREDIS_LIBS := $(shell PKG_CONFIG_PATH='$(ENV_PKG_CONFIG_PATH)' pkg-config --libs hiredis)
HIREDIS_DEP :=
else
# GNU make 4.3 does not pass exported variables to $(shell): name the path here.
HIREDIS_CFLAGS = $(shell PKG_CONFIG_PATH=$(DEPS)/lib/pkgconfig pkg-config --cflags hiredis 2>/dev/null)
HIREDIS_LIBS := $(DEPS)/lib/libhiredis.a
HIREDIS_DEP := $(DEPS)/lib/libhiredis.a
endif

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
        -Wvla -Wundef -Werror
CFLAGS ?= -O2 -g
# The rooms of each program (docs/architecture.md); headers keep unique names across them.
DRIVER_DIRS := driver driver/engine driver/proto driver/wl driver/wrap driver/srv
COMPARE_DIRS := compare compare/cmd compare/run compare/analysis compare/report compare/data compare/util
SRC_DIRS := common $(DRIVER_DIRS) $(COMPARE_DIRS)
INCLUDES := -Icommon -Idriver -Icompare
CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) -pthread $(INCLUDES) \
          $(HIREDIS_CFLAGS) $(shell pkg-config --cflags $(PKGS))
LDLIBS += $(HIREDIS_LIBS) $(shell pkg-config --libs $(PKGS)) -lm -pthread
# libcurl is compare's alone (posting reports), nghttp2 the driver's alone (HTTP/2 framing).
DRIVER_LDLIBS := $(HIREDIS_LIBS) $(shell pkg-config --libs $(filter-out libcurl,$(PKGS))) -lm -pthread
COMPARE_LDLIBS := $(HIREDIS_LIBS) $(shell pkg-config --libs $(filter-out libnghttp2,$(PKGS))) -lm -pthread
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
# The release (VERSION, semantic) and the commit: --version prints "pairbench 0.9.0 (abc1234)".
RELEASE := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
CFLAGS += -DPAIRBENCH_VERSION='"$(VERSION)"' -DPAIRBENCH_RELEASE='"$(RELEASE)"'

BUILD := build
ifneq ($(SANITIZE),)
CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
BUILD := build/san
endif
PAIRBENCH_OPT_FLAGS := $(strip $(filter -O% -g -fsanitize=%,$(CFLAGS)))
CFLAGS += -DPAIRBENCH_CFLAGS='"$(PAIRBENCH_OPT_FLAGS)"'
.DEFAULT_GOAL := all
# The objects that embed the version and flags (results, meta.json, --version) are rebuilt
# when either changes: the stamp is rewritten only then.
VERSION_STAMP := $(BUILD)/version.stamp
$(shell mkdir -p $(BUILD) && echo '$(RELEASE) $(VERSION) $(PAIRBENCH_OPT_FLAGS)' | cmp -s - $(VERSION_STAMP) \
    || echo '$(RELEASE) $(VERSION) $(PAIRBENCH_OPT_FLAGS)' > $(VERSION_STAMP))
$(addprefix $(BUILD)/,driver/main.o driver/result.o driver/agent.o compare/run/envinfo.o \
    compare/main.o compare/run/runmeta.o compare/run/remote.o): $(VERSION_STAMP)

COMMON_SRC := $(wildcard common/*.c)
DRIVER_SRC := $(filter-out driver/main.c,$(wildcard $(addsuffix /*.c,$(DRIVER_DIRS))))
COMPARE_SRC := $(filter-out compare/main.c,$(wildcard $(addsuffix /*.c,$(COMPARE_DIRS))))
UNIT_SRC := $(wildcard tests/unit/test_*.c)

COMMON_OBJ := $(COMMON_SRC:%.c=$(BUILD)/%.o)
DRIVER_OBJ := $(DRIVER_SRC:%.c=$(BUILD)/%.o)
COMPARE_OBJ := $(COMPARE_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

BIN_DRIVER := bin/driver
BIN_COMPARE := bin/compare
BIN_SEED := bin/libpairbench-seed.so
ifneq ($(SANITIZE),)
BIN_DRIVER := $(BUILD)/bin/driver
BIN_COMPARE := $(BUILD)/bin/compare
BIN_SEED := $(BUILD)/bin/libpairbench-seed.so
endif

# A quiet build, as git and the kernel print it: one "CC x.o" / "LD bin/x" line per step;
# V=1 prints the full commands.
ifeq ($(V),1)
QUIET_CC :=
QUIET_LD :=
else
QUIET_CC = @echo '   CC $(@:$(BUILD)/%=%)';
QUIET_LD = @echo '   LD $(@:$(BUILD)/%=%)';
endif

.PHONY: all tests test unit mutate check unused-includes format clean deps demo fuzz fuzz-smoke bench install uninstall
all: $(BIN_DRIVER) $(BIN_COMPARE) $(BIN_SEED)
tests: all $(UNIT_BIN)

# The interposer of counted runs (preload/seed.c, wake.c, clock.c, jemalloc.c): loaded into the server under test, so it
# is built without sanitizers (an instrumented library breaks an uninstrumented server) and
# beside compare, which finds it there (or in ../lib/pairbench once installed).
PRELOAD_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -fPIC -shared $(WARN)
$(BIN_SEED): preload/seed.c preload/wake.c preload/clock.c preload/jemalloc.c preload/clock.h \
	preload/next_fn.h
	@mkdir -p $(@D)
	$(QUIET_LD)$(CC) $(PRELOAD_CFLAGS) -o $@ $(filter %.c,$^) -ldl

$(BUILD)/%.o: %.c | $(HIREDIS_DEP)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BIN_DRIVER): $(BUILD)/driver/main.o $(DRIVER_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(QUIET_LD)$(CC) $(LDFLAGS) -o $@ $^ $(DRIVER_LDLIBS)

$(BIN_COMPARE): $(BUILD)/compare/main.o $(COMPARE_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(QUIET_LD)$(CC) $(LDFLAGS) -o $@ $^ $(COMPARE_LDLIBS)

# Each unit test links the library objects of both programs (everything but the mains).
$(BUILD)/tests/%: tests/unit/%.c $(DRIVER_OBJ) $(COMPARE_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(QUIET_LD)$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Tests run against the binaries of this build (sanitized ones with SANITIZE=...). Integration
# tests tagged untimed run TEST_JOBS at a time; timed ones always run alone (tests/run.sh).
TEST_JOBS ?= 3
test: tests
	PAIRBENCH_BUILD=$(BUILD) BIN_DRIVER=$(CURDIR)/$(BIN_DRIVER) BIN_COMPARE=$(CURDIR)/$(BIN_COMPARE) \
	    sh tests/run.sh -j$(TEST_JOBS)

unit: tests
	PAIRBENCH_BUILD=$(BUILD) BIN_DRIVER=$(CURDIR)/$(BIN_DRIVER) BIN_COMPARE=$(CURDIR)/$(BIN_COMPARE) \
	    sh tests/run.sh unit

# Mutation testing: each mutant of tests/mutants.txt, applied alone to a scratch copy of the
# tree, must make the unit tests it names fail (tests/mutate.sh; MUTANTS=TEXT: only those lines).
mutate:
	sh tests/mutate.sh $(MUTANTS)

C_FILES = $(wildcard $(addsuffix /*.[ch],$(SRC_DIRS)) tests/unit/*.[ch] tests/fuzz/*.c)
# tests/unused-includes.sh compiles with these flags (the environment keeps their quotes).
check unused-includes: export UNUSED_CFLAGS = $(CFLAGS)
check:
	clang-format --dry-run --Werror $(C_FILES)
	sh tests/code-shape.sh
	sh tests/include-rooms.sh
	sh tests/inline-sentences.sh
	sh tests/percent-format.sh
	sh tests/results-cites.sh
	sh tests/test-lint.sh
	CC='$(CC)' sh tests/unused-includes.sh
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability --inline-suppr \
	    --suppress=missingIncludeSystem --include=ci/cppcheck-jansson.h \
	    $(INCLUDES) common driver compare
	@# one clang-tidy per file: clang-tidy 14 analysing several files in one process reports
	@# every va_start after the first file as an uninitialised va_list (valist.Uninitialized)
	@rc=0; for f in $(filter %.c,$(C_FILES)); do \
	    clang-tidy --quiet $$f -- $(CFLAGS) -Itests/unit || rc=1; done; exit $$rc

format:
	clang-format -i $(C_FILES)

# Quoted includes a .c file does not use (UNUSED_FILES="a.c b.c": only those).
unused-includes:
	CC='$(CC)' sh tests/unused-includes.sh $(UNUSED_FILES)

# Fuzz targets: tests/fuzz/fuzz_*.c, each links the library objects (built by clang).
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 3
# CFLAGS goes through the environment: on the command line it would replace the include
# paths and warnings this Makefile appends instead of being extended by them.
FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined
fuzz:
	CFLAGS='$(FUZZ_CFLAGS)' $(MAKE) BUILD=build/fuzz CC=clang fuzz-bins
	sh tests/fuzz/run.sh build/fuzz $(FUZZ_SECONDS)
fuzz-smoke:
	CFLAGS='$(FUZZ_CFLAGS)' $(MAKE) BUILD=build/fuzz CC=clang fuzz-bins
	sh tests/fuzz/run.sh build/fuzz $(FUZZ_SMOKE_SECONDS)
fuzz-bins: $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz-bin/%)
$(BUILD)/fuzz-bin/%: tests/fuzz/%.c $(DRIVER_OBJ) $(COMPARE_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(QUIET_LD)$(CC) $(CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS)

deps:
	sh ci/install-deps.sh

# As root: install what is missing first. Otherwise: check, and name what to install.
demo:
	@if [ "$$(id -u)" -eq 0 ]; then sh ci/install-deps.sh; else sh ci/install-deps.sh --check; fi
	$(MAKE) all
	$(BIN_COMPARE) demo

$(DEPS)/lib/libhiredis.a:
	sh ci/build-hiredis.sh "$(DEPS)"

# Install: the two binaries, their man pages and the counted runs' interposer. Packagers stage with DESTDIR.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
MAN_PAGES := man/compare.1 man/driver.1
LIBDIR ?= $(PREFIX)/lib
install: bin/driver bin/compare bin/libpairbench-seed.so
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(LIBDIR)/pairbench'
	install -m 755 bin/compare bin/driver '$(DESTDIR)$(BINDIR)/'
	install -m 644 bin/libpairbench-seed.so '$(DESTDIR)$(LIBDIR)/pairbench/'
	install -m 644 $(MAN_PAGES) '$(DESTDIR)$(MANDIR)/man1/'

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/compare' '$(DESTDIR)$(BINDIR)/driver' \
	    '$(DESTDIR)$(LIBDIR)/pairbench/libpairbench-seed.so' \
	    $(addprefix '$(DESTDIR)$(MANDIR)/man1/,$(addsuffix ',$(notdir $(MAN_PAGES))))

clean:
	rm -rf build bin

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
