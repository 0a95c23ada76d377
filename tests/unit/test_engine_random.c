#include "testlib.h"
int main(void){return test_summary();}
