/* placeholder: written by a helper */
