/*
 * libunwind-plt.so / libunwind-plt-now.so: the shared library of the
 * unwind-plt workloads (see unwind-plt.c). plt_outer() calls plt_leaf()
 * through this library's own PLT (plt_leaf is exported and default
 * visibility, so gcc -fPIC calls it as plt_leaf@PLT) and does a little
 * work after it; plt_leaf() is a few instructions. Both are tiny on
 * purpose: a good share of the samples land in the PLT stubs themselves.
 * Built by gcc -O2 -fomit-frame-pointer -fPIC.
 */
volatile unsigned long plt_sink;

__attribute__((noinline, noclone)) unsigned long plt_leaf(unsigned long x)
{
	plt_sink += x;
	return x + 1;
}

__attribute__((noinline, noclone)) unsigned long plt_outer(unsigned long x)
{
	unsigned long r = plt_leaf(x);

	plt_sink += r;
	return r;
}
