# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# fish completion for bpfprof. Installed into $datadir/fish/vendor_completions.d.

set -l bpfprof_commands record range watch top report diff list help version

# Short names of the record options that take a value.
set -g __bpfprof_record_arg_short p t G C F c e d o f
set -g __bpfprof_record_arg_long pid tid cgroup cpu freq period event duration max-depth max-stacks unwind call-graph unwind-memory output format demangle debug-dir jit-map-max title subtitle width minwidth limit interval

# Index of the first word of COMMAND in the tokens before the cursor (the
# cursor's own token counts as the next one); fails while still in options.
function __bpfprof_record_command_start
    set -l tokens (commandline -opc)
    set -l i 3
    while test $i -le (count $tokens)
        set -l t $tokens[$i]
        if test "$t" = --
            math $i + 1
            return 0
        else if string match -qr -- '^-[^-]$' $t; and contains -- (string sub -s 2 -- $t) $__bpfprof_record_arg_short
            set i (math $i + 2)
            continue
        else if string match -qr -- '^--[^=]+$' $t; and contains -- (string sub -s 3 -- $t) $__bpfprof_record_arg_long
            set i (math $i + 2)
            continue
        else if not string match -q -- '-*' $t
            echo $i
            return 0
        end
        set i (math $i + 1)
    end
    # The token under the cursor starts COMMAND unless it is an option or
    # the value of one.
    set -l cur (commandline -ct)
    if test $i -eq (math (count $tokens) + 1); and not string match -q -- '-*' $cur
        echo $i
        return 0
    end
    return 1
end

# In `bpfprof record`, before COMMAND.
function __bpfprof_record_options
    __fish_seen_subcommand_from record; or return 1
    not __bpfprof_record_command_start >/dev/null
end

# In `bpfprof range`, before the -- that starts COMMAND.
function __bpfprof_range_options
    __fish_seen_subcommand_from range; or return 1
    not contains -- -- (commandline -opc)
end

# In `bpfprof watch`, before the -- that starts COMMAND.
function __bpfprof_watch_options
    __fish_seen_subcommand_from watch; or return 1
    not contains -- -- (commandline -opc)
end

# In `bpfprof top`, before the -- that starts COMMAND.
function __bpfprof_top_options
    __fish_seen_subcommand_from top; or return 1
    not contains -- -- (commandline -opc)
end

# In `bpfprof range`, `watch` or `top`, after --: COMMAND or its arguments.
function __bpfprof_range_in_command
    __fish_seen_subcommand_from range watch top; or return 1
    contains -- -- (commandline -opc)
end

# In the options of record, range, watch or top (the options they share).
function __bpfprof_shared_options
    __bpfprof_record_options; or __bpfprof_range_options; or __bpfprof_watch_options; or __bpfprof_top_options
end

# In `bpfprof record`, completing COMMAND or its arguments.
function __bpfprof_record_in_command
    __fish_seen_subcommand_from record; or return 1
    __bpfprof_record_command_start >/dev/null
end

function __bpfprof_complete_command
    set -l tokens (commandline -opc)
    set -l start
    if __fish_seen_subcommand_from range watch top
        set start (contains -i -- -- $tokens); or return
        set start (math $start + 1)
    else
        set start (__bpfprof_record_command_start); or return
    end
    if test $start -gt (count $tokens)
        __fish_complete_command
    else
        complete -C (string join ' ' -- (string escape -- $tokens[$start..-1]) (commandline -ct))
    end
end

function __bpfprof_cgroups
    set -l mnt (string match -r '^\S+ \S+ \S+ \S+ (\S+) .* - cgroup2 ' < /proc/self/mountinfo)[2]
    test -n "$mnt"; or return
    set -l cur (string replace -r '^/+' '' -- (commandline -ct))
    for d in $mnt/$cur*/
        string replace -- "$mnt/" '' $d
    end
end

complete -c bpfprof -f

# Subcommands and top-level options
complete -c bpfprof -n "not __fish_seen_subcommand_from $bpfprof_commands" -a record -d 'Sample stacks and write folded stacks'
complete -c bpfprof -n "not __fish_seen_subcommand_from $bpfprof_commands" -a range -d 'Count samples per instruction in address ranges'
complete -c bpfprof -n "not __fish_seen_subcommand_from $bpfprof_commands" -a watch -d 'Count accesses to data or code with hardware breakpoints'
complete -c bpfprof -n "not __fish_seen_subcommand_from $bpfprof_commands" -a top -d 'Show the hottest functions live'
complete -c bpfprof -n "not __fish_seen_subcommand_from $bpfprof_commands" -a report -d 'Read a saved profile (pprof or folded), write any format'
complete -c bpfprof -n "not __fish_seen_subcommand_from $bpfprof_commands" -a diff -d 'Compare two saved profiles: a differential flame graph'
complete -c bpfprof -n "not __fish_seen_subcommand_from $bpfprof_commands" -a list -d 'List the events, and whether each opens here'
complete -c bpfprof -n "not __fish_seen_subcommand_from $bpfprof_commands" -a help -d 'Overview of the commands'
complete -c bpfprof -n "not __fish_seen_subcommand_from $bpfprof_commands" -a version -d 'Version and features'
complete -c bpfprof -n "not __fish_seen_subcommand_from $bpfprof_commands" -s h -l help -d 'Overview of the commands'
complete -c bpfprof -n "not __fish_seen_subcommand_from $bpfprof_commands" -s V -l version -d 'Version and features'

# bpfprof record and range: targets
set -l rec __bpfprof_record_options
set -l rng __bpfprof_range_options
set -l wat __bpfprof_watch_options
set -l top __bpfprof_top_options
set -l both __bpfprof_shared_options
complete -c bpfprof -n $both -s a -l all-cpus -d 'Every process on every CPU'
complete -c bpfprof -n $both -s p -l pid -x -a '(__fish_complete_pids)' -d 'These processes and their children'
complete -c bpfprof -n $both -s t -l tid -x -d 'These threads only'
complete -c bpfprof -n $both -s G -l cgroup -x -a '(__bpfprof_cgroups)' -d 'Tasks in this cgroup v2 directory'
complete -c bpfprof -n $both -s C -l cpu -x -d 'Only these CPUs (e.g. 0,2-3)'
complete -c bpfprof -n $both -l idle -d 'Keep samples of the idle task'

# bpfprof record and range: sampling
complete -c bpfprof -n $both -s F -l freq -x -a max -d 'Samples per second on each CPU'
complete -c bpfprof -n $both -s c -l period -x -d 'Sample once every N events'
complete -c bpfprof -n $both -s e -l event -x -d 'Event to sample' -a 'cpu-clock task-clock page-faults faults context-switches cs cpu-migrations migrations minor-faults major-faults alignment-faults emulation-faults cycles cpu-cycles instructions cache-references cache-misses branches branch-instructions branch-misses bus-cycles stalled-cycles-frontend idle-cycles-frontend stalled-cycles-backend idle-cycles-backend ref-cycles L1-dcache-loads L1-dcache-load-misses L1-dcache-stores L1-dcache-store-misses L1-dcache-prefetches L1-dcache-prefetch-misses L1-icache-loads L1-icache-load-misses L1-icache-prefetches L1-icache-prefetch-misses LLC-loads LLC-load-misses LLC-stores LLC-store-misses LLC-prefetches LLC-prefetch-misses dTLB-loads dTLB-load-misses dTLB-stores dTLB-store-misses dTLB-prefetches dTLB-prefetch-misses iTLB-loads iTLB-load-misses branch-loads branch-load-misses node-loads node-load-misses node-stores node-store-misses node-prefetches node-prefetch-misses'
complete -c bpfprof -n $both -s d -l duration -x -d 'Stop after SECONDS'
complete -c bpfprof -n $rec -s U -l user-only -d 'Keep user frames only'
complete -c bpfprof -n $rec -s K -l kernel-only -d 'Keep kernel frames only'
complete -c bpfprof -n $rec -l max-depth -x -d 'Frames kept per user and kernel stack'
complete -c bpfprof -n $rec -l max-stacks -x -d 'Room for N unique stacks'
complete -c bpfprof -n $both -l unwind -x -a 'auto\t"DWARF tables, frame pointers elsewhere" dwarf\t"DWARF tables only" fp\t"Frame pointers only"' -d 'How user stacks are walked'
complete -c bpfprof -n $rec -l call-graph -x -a 'fp\t"Frame pointers only" dwarf\t"DWARF tables only" lbr\t"Not used: auto, with a note"' -d "perf's spelling of --unwind"
complete -c bpfprof -n $rec -s g -d "perf's switch for stacks: always on here"
complete -c bpfprof -n $both -l unwind-memory -x -d 'Kernel memory for unwind tables'
complete -c bpfprof -n $rec -l stats -d 'Print walk outcomes, tables and BPF run time'
complete -c bpfprof -n $both -l no-unwind-hold -d 'Let the command run while its unwind tables are built'

# bpfprof record and range: output
complete -c bpfprof -n $both -s o -l output -r -F -d 'Write the output to FILE'
complete -c bpfprof -n $rec -s f -l format -x -a 'folded\t"Folded stacks (default)" pprof\t"Gzipped pprof protobuf" svg\t"Interactive flame graph" top\t"A table of functions by self and total samples" json\t"The profile as one JSON document"' -d 'Output format'
complete -c bpfprof -n $rec -l title -x -d 'svg: the title'
complete -c bpfprof -n $rec -l subtitle -x -d 'svg: the line under the title'
complete -c bpfprof -n $rec -l width -x -d 'svg: the image width in pixels'
complete -c bpfprof -n $rec -l minwidth -x -d 'svg: leave out frames narrower than PIXELS'
complete -c bpfprof -n $rec -l inverted -d 'svg: an icicle graph, the root at the top'
complete -c bpfprof -n $rec -l limit -x -d 'top: only the N functions with the most self samples'
complete -c bpfprof -n $rec -l interval -x -d 'A profile file every SECONDS (-o with %n or %t)'
complete -c bpfprof -n $rec -l per-pid -d 'Start each stack with comm-PID'
complete -c bpfprof -n $rec -l per-thread -d 'Start each stack with comm-PID/TID'
complete -c bpfprof -n $both -s q -l quiet -d 'No summary line on stderr'
complete -c bpfprof -n $both -l demangle -x -a 'short\t"No argument lists (default)" full\t"With argument lists" none\t"Raw names"' -d 'C++ and Rust names'
complete -c bpfprof -n $both -l no-demangle -d 'Raw symbol names (--demangle=none)'
complete -c bpfprof -n $rec -l no-inline -d 'No inlined-call frames'
complete -c bpfprof -n $rec -l lines -d 'Add the source FILE:LINE to each frame name, exact offsets for code without a symbol'
complete -c bpfprof -n $both -l debug-dir -x -a '(__fish_complete_directories)' -d 'Also look for debug files under DIR'
complete -c bpfprof -n $both -l jit-map-max -x -d 'Read at most SIZE of a JIT map (default 64M)'
complete -c bpfprof -n $rng -s f -l format -x -a 'text\t"Annotated listing (default)" json\t"One JSON document"' -d 'Listing format'
complete -c bpfprof -n $rng -l sort -x -a 'address\t"By address (default)" samples\t"Hottest first"' -d 'Order of the instructions'
complete -c bpfprof -n $rng -l no-disasm -d 'No instruction column'
complete -c bpfprof -n $rng -l no-source -d 'No source lines'
complete -c bpfprof -n $rng -l stacks -r -F -d 'Also write the stacks of the in-range samples to FILE'

# bpfprof watch: what is kept, and output
complete -c bpfprof -n $wat -l access -x -a 'w\t"Writes (default)" r\t"Reads (x86: reads and writes)" rw\t"Reads and writes" x\t"Execution: an instruction breakpoint"' -d 'What an access is'
complete -c bpfprof -n $wat -l if -x -d 'Keep the accesses for which EXPR holds'
complete -c bpfprof -n $wat -l rotate -x -d 'More locations than registers: a turn in MS (default 10)'
complete -c bpfprof -n $wat -l count -x -d 'Stop after N matching accesses'
complete -c bpfprof -n $wat -l values -d 'A histogram of the values seen'
complete -c bpfprof -n $wat -l trap -d 'Send the accessing thread SIGTRAP at each matching access'
complete -c bpfprof -n $wat -s f -l format -x -a 'folded\t"Folded stacks (default)" pprof\t"Gzipped pprof protobuf" svg\t"Interactive flame graph" top\t"A table of functions by self and total samples" json\t"The profile as one JSON document"' -d 'Output format'
complete -c bpfprof -n $wat -l title -x -d 'svg: the title'
complete -c bpfprof -n $wat -l subtitle -x -d 'svg: the line under the title'
complete -c bpfprof -n $wat -l width -x -d 'svg: the image width in pixels'
complete -c bpfprof -n $wat -l minwidth -x -d 'svg: leave out frames narrower than PIXELS'
complete -c bpfprof -n $wat -l inverted -d 'svg: an icicle graph, the root at the top'
complete -c bpfprof -n $wat -l limit -x -d 'top: only the N functions with the most self samples'
complete -c bpfprof -n $wat -l per-pid -d 'Start each stack with comm-PID'
complete -c bpfprof -n $wat -l per-thread -d 'Start each stack with comm-PID/TID'
complete -c bpfprof -n $wat -l lines -d 'Add the source FILE:LINE to each frame name'

# bpfprof top: refreshes
complete -c bpfprof -n $top -l delay -x -d 'Refresh every SECONDS (default 1)'
complete -c bpfprof -n $top -l limit -x -d 'At most N functions a refresh'

# bpfprof record and range: help
complete -c bpfprof -n $both -s '?' -l help -d 'Options and examples'
complete -c bpfprof -n $both -l usage -d 'Short usage message'
complete -c bpfprof -n $both -s V -l version -d 'Version'

# bpfprof record [OPTION...] COMMAND [ARG...]
complete -c bpfprof -n __bpfprof_record_in_command -x -a '(__bpfprof_complete_command)'
# bpfprof range|watch|top [OPTION...] [ARG...] -- COMMAND [ARG...]
complete -c bpfprof -n __bpfprof_range_in_command -x -a '(__bpfprof_complete_command)'

# bpfprof report FILE, bpfprof diff BASE NEW: saved profiles
set -l rep "__fish_seen_subcommand_from report diff"
set -l rpt "__fish_seen_subcommand_from report"
set -l dif "__fish_seen_subcommand_from diff"
complete -c bpfprof -n $rep -F
complete -c bpfprof -n $rep -s o -l output -r -F -d 'Write the output to FILE'
complete -c bpfprof -n $rep -s q -l quiet -d 'No summary line on stderr'
complete -c bpfprof -n $rpt -s f -l format -x -a 'folded\t"Folded stacks (default)" pprof\t"Gzipped pprof protobuf" svg\t"Interactive flame graph" top\t"A table of functions by self and total samples" json\t"The profile as one JSON document"' -d 'Output format'
complete -c bpfprof -n $dif -s f -l format -x -a 'svg\t"Differential flame graph (default)" folded\t"stack BASE NEW lines"' -d 'Output format'
complete -c bpfprof -n $rep -l value -x -d "pprof: count the values of this sample type"
complete -c bpfprof -n $rep -l max-input -x -d "The most a gzipped profile may inflate to (e.g. 1G)"
complete -c bpfprof -n $rep -l lines -d 'Add the source FILE:LINE a pprof gives to each frame name'
complete -c bpfprof -n $rep -l title -x -d 'svg: the title'
complete -c bpfprof -n $rep -l subtitle -x -d 'svg: the line under the title'
complete -c bpfprof -n $rep -l width -x -d 'svg: the image width in pixels'
complete -c bpfprof -n $rep -l minwidth -x -d 'svg: leave out frames narrower than PIXELS'
complete -c bpfprof -n $rep -l inverted -d 'svg: an icicle graph, the root at the top'
complete -c bpfprof -n $rep -l limit -x -d 'top: only the N functions with the most self samples'
complete -c bpfprof -n $rep -s '?' -l help -d 'Options and examples'
complete -c bpfprof -n $rep -l usage -d 'Short usage message'
complete -c bpfprof -n $rep -s V -l version -d 'Version'

# bpfprof list [PATTERN...]: event names, kinds, PMUs
set -l lst "__fish_seen_subcommand_from list"
complete -c bpfprof -n $lst -a 'cpu-clock task-clock page-faults context-switches cpu-migrations minor-faults major-faults alignment-faults emulation-faults cycles instructions cache-references cache-misses branches branch-misses bus-cycles stalled-cycles-frontend stalled-cycles-backend ref-cycles software hardware cache raw pmu libpfm4 breakpoint'
complete -c bpfprof -n $lst -a '(ls /sys/bus/event_source/devices 2>/dev/null)'
complete -c bpfprof -n $lst -l available -d 'Only the events that open here'
complete -c bpfprof -n $lst -s f -l format -x -a 'text\t"Aligned columns (default)" json\t"An array of objects"' -d 'Output format'
complete -c bpfprof -n $lst -s '?' -l help -d 'Options and examples'
complete -c bpfprof -n $lst -l usage -d 'Short usage message'
complete -c bpfprof -n $lst -s V -l version -d 'Version'
