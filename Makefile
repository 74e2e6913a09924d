# hystkit: plain GNU make. `make` builds libhyst, libmech and the programs; `make test`, `make bench`,
# `make demo`, `make install PREFIX=...`. Every target that needs system packages first runs
# scripts/install-deps, which installs only what is missing.
#
# Parallel developers keep separate trees with BUILD=/tmp/x BIN=/tmp/x/bin.

PREFIX ?= /usr/local
# where Debian's python3 looks for packages under PREFIX (evaluated by install only; docs/python.md "Install"): the
# user site-packages when PREFIX is the user base (~/.local/lib/python3.11/site-packages), else
# PREFIX/lib/python3.X/dist-packages (on Debian's path for /usr/local); install says when python3 does not look there
PYDIR  ?= $(shell /usr/bin/python3 scripts/python-dir '$(PREFIX)')
SAN    ?= 0

ifeq ($(SAN),1)
  BUILD ?= build-san
  BIN   ?= $(BUILD)/bin
  SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  OPT := -O1 -g
else
  BUILD ?= build
  BIN   ?= bin
  SANFLAGS :=
  # -O3 and no semantic interposition (the libraries are built -fPIC, which otherwise keeps GCC from inlining a
  # global function into its own file's callers): 5-7 % off the 400 s dock runs (docs/dock-process.md §7b), the
  # same results to the bit (no fast-math; ISO C mode keeps FP contraction off)
  OPT := -O3 -g -fno-semantic-interposition
endif

CC      ?= cc
CPPFLAGS += -Ilibhyst/include -Ilibmech/include -Ilibmech/src -Itools/common -D_GNU_SOURCE -MMD -MP
CFLAGS  ?= $(OPT)
CFLAGS  += -std=c11 -Wall -Wextra -Werror -fPIC $(SANFLAGS)
LDFLAGS += $(SANFLAGS)
# libhyst needs LAPACK, libcsv and cJSON; libmech adds SLICOT (Riccati) and GLPK (the friction LPs).
HYST_LIBS := -llapacke -lopenblas -lcsv -lcjson -ldeflate -lm
# and the C++17 standard library (one .cc shim: exact number text with {fmt}'s Dragonbox, header-only); serial HDF5 (the .h5 logs) is loaded
# with dlopen when a log is used (libhyst/src/h5lib.h), so only its headers are needed here.
HDF5_CPPFLAGS ?= -I/usr/include/hdf5/serial
HYST_LIBS += -lstdc++
HYST_LIBS := -lgsl $(HYST_LIBS)  # GSL: multifit_nlinear for the Bouc-Wen and Iwan fits (docs/fit-families.md)
CPPFLAGS  += $(HDF5_CPPFLAGS)
CXXFLAGS ?= $(OPT)
CXXFLAGS += -std=c++17 -Wall -Wextra -Werror -fPIC $(SANFLAGS)
LDLIBS  := -lslicot -lglpk $(HYST_LIBS)
# The programs (bin/hyst, bin/mech) take the numerical libraries from Debian's static archives. A process then starts
# in about 3 ms instead of 9-11 ms, which the dynamic loader spent binding the symbols of 26 libraries (mostly
# OpenBLAS's and libgfortran's) for every run: a third of `mech beam sim`'s whole process. The C++ runtime is taken
# from its archive as well: the one .cc shim needs a few of its symbols (std::runtime_error, the exception
# personality), and loading and relocating the shared libstdc++ cost 0.25-0.3 ms of every run (`mech --help` 0.76 ->
# 0.54 ms CPU, `mech beam sim` §4.5 10.2 -> 9.6 ms; GCC's runtime library exception allows it). cJSON ships no
# archive and the C runtime stays shared. libhyst.so and libmech.so (Python), the tests, the benches and a SAN=1 build
# link everything dynamically. The archives come with the -dev packages in scripts/install-deps (libgfortran.a with
# gfortran, libstdc++.a with g++ (build-essential), libltdl.a, GLPK's, with libltdl-dev).
STATIC_NUM := -lgsl -llapacke -lopenblas -lcsv -ldeflate -lgfortran -lquadmath -lstdc++
DYN_RT     := -Wl,-Bdynamic -lcjson -lm -lpthread -ldl
ifeq ($(SAN),1)
  HYST_PROG_LIBS := $(HYST_LIBS)
  MECH_PROG_LIBS := $(LDLIBS)
else
  HYST_PROG_LIBS := -Wl,--as-needed -Wl,-Bstatic $(STATIC_NUM) $(DYN_RT)
  MECH_PROG_LIBS := -Wl,--as-needed -Wl,-Bstatic -lslicot -lglpk $(STATIC_NUM) -lcolamd -lamd -lsuitesparseconfig \
    -lltdl -lgmp -lz $(DYN_RT)
endif

HYST_SRC  := $(sort $(wildcard libhyst/src/*.c))
HYST_CXX  := $(sort $(wildcard libhyst/src/*.cc))
MECH_SRC  := $(sort $(wildcard libmech/src/*/*.c))
# tools/common/: the command-line layer of both programs (tool_cli.h: messages, options, output rules)
CTOOL_SRC := $(sort $(wildcard tools/common/*.c))
TOOL_SRC  := $(sort $(wildcard tools/hyst/*.c)) $(CTOOL_SRC)
MTOOL_SRC := $(sort $(wildcard tools/mech/*.c)) $(CTOOL_SRC)
UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
BENCH_SRC := $(sort $(wildcard bench/bench_*.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
HYST_OBJ  := $(call obj,$(HYST_SRC)) $(patsubst %.cc,$(BUILD)/obj/%.o,$(HYST_CXX))
MECH_OBJ  := $(call obj,$(MECH_SRC))
TOOL_OBJ  := $(call obj,$(TOOL_SRC))
MTOOL_OBJ := $(call obj,$(MTOOL_SRC))
UNIT_BIN  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
BENCH_BIN := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))

LIBHYST_A  := $(BUILD)/lib/libhyst.a
LIBHYST_SO := $(BUILD)/lib/libhyst.so
LIBMECH_A  := $(BUILD)/lib/libmech.a
LIBMECH_SO := $(BUILD)/lib/libmech.so
DEPS_STAMP := $(BUILD)/.deps-ok

PROGRAMS := $(BIN)/hyst $(if $(MTOOL_SRC),$(BIN)/mech)

.SECONDARY:
.PHONY: all deps lib test test-portable test-unit test-e2e bench demo install uninstall clean check-one fuzz binaries wheel
all: $(DEPS_STAMP) lib $(PROGRAMS)

# Installs missing Debian packages once per build tree (the script itself is quick when nothing is missing).
$(DEPS_STAMP): scripts/install-deps
	@mkdir -p $(dir $@)
	@scripts/install-deps
	@touch $@
deps:
	@scripts/install-deps

lib: $(DEPS_STAMP) $(LIBHYST_A) $(LIBHYST_SO) $(if $(MECH_SRC),$(LIBMECH_A) $(LIBMECH_SO))

$(BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@
$(BUILD)/obj/%.o: %.cc | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c $< -o $@

$(LIBHYST_A): $(HYST_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^
# Shared libraries (docs/python.md): libX.so -> libX.so.$(SO_MAJOR) (the soname) -> libX.so.$(SO_VERSION); only the
# names of the public headers are exported (version scripts made by scripts/export-map; tests/e2e/test_install.sh).
SO_VERSION := 0.1.0
SO_MAJOR   := 0
SO_LINK = $(CC) -shared $(LDFLAGS) -Wl,--no-undefined -Wl,-soname,$(notdir $@).$(SO_MAJOR) \
  -Wl,--version-script=$(filter %.map,$^) -o $@.$(SO_VERSION) $(filter %.o,$^)
SO_NAMES = ln -sf $(notdir $@).$(SO_VERSION) $@.$(SO_MAJOR) && ln -sf $(notdir $@).$(SO_VERSION) $@
$(BUILD)/lib/%.map: scripts/export-map $(wildcard libhyst/include/hyst/*.h libmech/include/mech/*.h)
	@mkdir -p $(dir $@)
	scripts/export-map $(if $(filter hyst,$*),HYST_$(SO_MAJOR) libhyst/include/hyst/*.h,MECH_$(SO_MAJOR) libmech/include/mech/*.h) > $@
$(LIBHYST_SO): $(HYST_OBJ) $(BUILD)/lib/hyst.map
	$(SO_LINK) $(HYST_LIBS)
	$(SO_NAMES)
$(LIBMECH_SO): $(MECH_OBJ) $(BUILD)/lib/mech.map $(LIBHYST_SO)
	$(SO_LINK) -L$(BUILD)/lib -lhyst -Wl,-rpath,'$$ORIGIN' $(LDLIBS)
	$(SO_NAMES)
$(LIBMECH_A): $(MECH_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/hyst: $(TOOL_OBJ) $(LIBHYST_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(LIBHYST_A) $(HYST_PROG_LIBS)
# mech sweep's MPI workers: mpi.h for the types only; libmpi is opened with dlopen under mpirun (docs/sweep.md)
$(BUILD)/obj/tools/mech/sweep_pool.o: CPPFLAGS += $(shell pkg-config --cflags ompi-c 2>/dev/null)
# mech view's page script and style (tools/mech/view/), kept readable in the repository and compiled in as byte
# arrays (xxd -i); a "</script" or "</style" in them would end their inline block early, so it is refused here
VIEW_ASSETS := tools/mech/view/viewer.js tools/mech/view/viewer.css
$(BUILD)/gen/view_assets.h: $(VIEW_ASSETS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@if grep -il '</script\|</style' $(VIEW_ASSETS); then echo 'view assets: no </script or </style inside' >&2; exit 1; fi
	{ echo '/* generated from $(VIEW_ASSETS) by the Makefile (xxd -i) */'; \
	  echo 'static const unsigned char view_viewer_js[] = {'; xxd -i < tools/mech/view/viewer.js; echo '};'; \
	  echo 'static const unsigned char view_viewer_css[] = {'; xxd -i < tools/mech/view/viewer.css; echo '};'; } > $@.tmp
	mv $@.tmp $@
$(BUILD)/obj/tools/mech/view_page.o: $(BUILD)/gen/view_assets.h
$(BUILD)/obj/tools/mech/view_page.o: CPPFLAGS += -I$(BUILD)/gen
$(BIN)/mech: $(MTOOL_OBJ) $(LIBMECH_A) $(LIBHYST_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(MTOOL_OBJ) $(LIBMECH_A) $(LIBHYST_A) $(MECH_PROG_LIBS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A) $(LDLIBS) -lcmocka \
	  $(if $(filter test_body_mujoco%,$*),-lmujoco)
# Tests of allocation failures (tests/unit/test_fault_*.c) are linked with the malloc interposer fault_alloc.c,
# built without sanitizer instrumentation: it runs inside AddressSanitizer's own start-up, before its shadow memory.
$(BUILD)/obj/tests/unit/fault_alloc.o: tests/unit/fault_alloc.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(filter-out -fsanitize=%,$(CFLAGS)) -c $< -o $@
$(BUILD)/tests/test_fault_%: $(BUILD)/obj/tests/unit/test_fault_%.o $(BUILD)/obj/tests/unit/fault_alloc.o \
    $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A) $(LDLIBS) -lcmocka -ldl
$(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(if $(MECH_SRC),$(LIBMECH_A)) $(LIBHYST_A) $(LDLIBS) \
	  $(if $(findstring mujoco,$*)$(filter bench_contact,$*),-lmujoco)

# The test command of the README: unit tests (cmocka) and end-to-end tests of the programs.
test: all $(UNIT_BIN)
	@BUILD=$(BUILD) BIN=$(BIN) scripts/run-tests $(UNIT_BIN)

# The dock and sweep tests (unit tests test_dock_*, test_sweep*, their end-to-end scripts) on the most portable code
# paths of this machine: glibc's libm without its FMA/AVX2 variants and OpenBLAS's baseline (Prescott) kernels, the
# numbers a processor without AVX2 gets (docs/reproducibility.md). CI runs it (.ci/run); about 2 min on 2 cores.
PORTABLE_ENV := GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4 OPENBLAS_CORETYPE=Prescott
PORTABLE_UNIT = $(filter $(BUILD)/tests/test_dock_% $(BUILD)/tests/test_sweep%,$(UNIT_BIN))
PORTABLE_E2E := tests/e2e/test_mech_dock*.sh tests/e2e/test_sweep.sh
test-portable: all $(filter $(BUILD)/tests/test_dock_% $(BUILD)/tests/test_sweep%,$(UNIT_BIN))
	@$(PORTABLE_ENV) E2E="$(PORTABLE_E2E)" BUILD=$(BUILD) BIN=$(BIN) scripts/run-tests $(PORTABLE_UNIT)

# One module's unit tests while developing: make check-one T=pwl
check-one: all $(filter $(BUILD)/tests/test_$(T)%,$(UNIT_BIN))
	@BUILD=$(BUILD) BIN=$(BIN) scripts/run-tests --unit-only $(filter $(BUILD)/tests/test_$(T)%,$(UNIT_BIN))

# Every binary (libraries, programs, unit tests, benchmarks) built and none run. CI builds them with GCC at -O2 (the
# build's own is -O3, whose deeper inlining finds "may be used uninitialized" paths that -O2 does not, and the other
# way round): a user's own optimisation flags must not meet a -Werror that ours never saw
binaries: all $(UNIT_BIN) $(BENCH_BIN)

bench: all $(BENCH_BIN)
	@for b in $(BENCH_BIN); do echo "== $$(basename $$b)"; \
	  OPENBLAS_NUM_THREADS=1 BIN=$(BIN) BUILD=$(BUILD) $$b || exit 1; done

demo: all
	@BIN=$(BIN) scripts/demo

# Fuzzing (docs/fuzzing.md): one libFuzzer binary per fuzz/fuzz_*.c, linked with every library source built by
# clang with the fuzzer's coverage and ASan + UBSan in its own tree; each runs FUZZ_TIME seconds on a temporary
# copy of fuzz/corpus/NAME (the repository's corpus is only read). A crash or failed invariant fails the target.
FUZZ_CC     ?= clang
FUZZ_TIME   ?= 60
FUZZ_BUILD  ?= build-fuzz
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 $(FUZZ_SAN)
FUZZ_SRC    := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BIN    := $(patsubst fuzz/%.c,$(FUZZ_BUILD)/%,$(FUZZ_SRC))
FUZZ_LIBOBJ := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(HYST_SRC) $(MECH_SRC)) \
               $(patsubst %.cc,$(FUZZ_BUILD)/obj/%.o,$(HYST_CXX))
FUZZ_CXX    ?= clang++

$(FUZZ_BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(FUZZ_BUILD)/obj/%.o: %.cc | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(CPPFLAGS) $(filter-out -std=c11,$(FUZZ_CFLAGS)) -std=c++17 -fno-sanitize=vptr \
	  -fsanitize=fuzzer-no-link -c $< -o $@
$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/fuzz/fuzz_%.o $(FUZZ_LIBOBJ)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
fuzz: $(FUZZ_BIN)
	@FUZZ_TIME=$(FUZZ_TIME) FUZZ_BUILD=$(FUZZ_BUILD) scripts/run-fuzz $(FUZZ_BIN)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/hyst
	install -m 755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIBHYST_A) $(DESTDIR)$(PREFIX)/lib/
	cp -P $(LIBHYST_SO)* $(DESTDIR)$(PREFIX)/lib/
	install -m 644 libhyst/include/hyst/*.h $(DESTDIR)$(PREFIX)/include/hyst/
	if [ -n "$(MECH_SRC)" ]; then install -d $(DESTDIR)$(PREFIX)/include/mech && \
	  install -m 644 $(LIBMECH_A) $(DESTDIR)$(PREFIX)/lib/ && cp -P $(LIBMECH_SO)* $(DESTDIR)$(PREFIX)/lib/ && \
	  sed -e 's|@PREFIX@|$(PREFIX)|' scripts/mech.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/mech.pc && \
	  install -m 644 libmech/include/mech/*.h $(DESTDIR)$(PREFIX)/include/mech/; fi
	sed -e 's|@PREFIX@|$(PREFIX)|' scripts/hyst.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/hyst.pc
	install -d $(DESTDIR)$(PYDIR)/hystkit && install -m 644 python/hystkit/*.py python/hystkit/py.typed \
	  $(DESTDIR)$(PYDIR)/hystkit/
	@/usr/bin/python3 scripts/python-dir --check '$(PYDIR)' '$(DESTDIR)'

# The Python package as a wheel in $(BUILD)/wheel/, with this build's shared libraries and programs inside
# (python/setup.py); offline, over Debian's python3-setuptools and python3-wheel
wheel: all
	@rm -rf $(BUILD)/wheel
	HYSTKIT_BUILD=$(abspath $(BUILD)) HYSTKIT_BIN=$(abspath $(BIN)) /usr/bin/python3 -m pip wheel -q \
	  --no-build-isolation --no-index --no-deps -w $(BUILD)/wheel ./python
	@ls $(BUILD)/wheel/*.whl

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/hyst $(DESTDIR)$(PREFIX)/bin/mech $(DESTDIR)$(PREFIX)/lib/libhyst.* \
	  $(DESTDIR)$(PREFIX)/lib/libmech.* $(DESTDIR)$(PREFIX)/lib/pkgconfig/hyst.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/mech.pc
	rm -rf $(DESTDIR)$(PREFIX)/include/hyst $(DESTDIR)$(PREFIX)/include/mech $(DESTDIR)$(PYDIR)/hystkit

clean:
	rm -rf build build-san build-fuzz build-clang build-O3 build-O2 bin out

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
-include $(if $(filter fuzz $(FUZZ_BUILD)/%,$(MAKECMDGOALS)),$(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null))
