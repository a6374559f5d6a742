/* placeholder: in progress */
