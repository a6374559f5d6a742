/*
 * libunwind-plt.so / libunwind-plt-now.so: the shared library of the
 * unwind-plt workloads (see unwind-plt.c). plt_leaf() returns at once;
 * plt_outer(n) is a tight loop that calls plt_leaf() 4n times through this
 * library's own PLT (plt_leaf is exported and default visibility, so gcc
 * -fPIC calls it as plt_leaf@PLT). Neither touches memory: the loop is
 * calls, the stub's indirect jumps and returns, four of each per round, so
 * the stub takes a large share of the samples by construction.
 * Built by gcc -O2 -fomit-frame-pointer -fPIC.
 */
__attribute__((noinline, noclone)) unsigned long plt_leaf(unsigned long x)
{
	return x + 1;
}

__attribute__((noinline, noclone)) unsigned long plt_outer(unsigned long n)
{
	unsigned long r = 0;

	for (unsigned long i = 0; i < n; i++)
		r = plt_leaf(plt_leaf(plt_leaf(plt_leaf(r + i))));
	return r;
}
