# scripts/common.sh: sourced by scripts/check and scripts/demo.
#
#   install_deps   installs the Debian 12 packages that are missing (as root);
#                  does nothing when all are there
#   build          ./autogen.sh, ./configure and make -j2 in the source tree,
#                  each step only when needed; ./strata is then at the top

STRATA_PACKAGES="autoconf automake pkg-config g++ make valgrind
   libboost-program-options-dev nlohmann-json3-dev libdw-dev libelf-dev libunwind-dev libprotobuf-dev protobuf-compiler zlib1g-dev help2man libgtest-dev googletest
   gnuplot-nox python3 groff-base man-db chromium golang-go"

install_deps() {
   local missing=() package
   for package in $STRATA_PACKAGES; do
      dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q '^install ok installed$' ||
         missing+=("$package")
   done
   # tests/t-page.sh's driver runs on node (npm installs it); a node of
   # another origin than Debian's will do.
   command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
   [ ${#missing[@]} -eq 0 ] && return 0
   if [ "$(id -u)" -ne 0 ]; then
      echo "strata needs these Debian packages: ${missing[*]}; install them as root" >&2
      return 1
   fi
   echo "Installing ${missing[*]}"
   export DEBIAN_FRONTEND=noninteractive
   apt-get update && apt-get install -y "${missing[@]}"
}

build() {
   if [ ! -x configure ]; then
      ./autogen.sh || return 1
   fi
   if [ ! -f Makefile ] || [ configure -nt config.status ]; then
      ./configure || return 1
   fi
   make -j2
}
